import path from "node:path";
import type { Config } from "../config";
import { DirectoryStorage } from "./directory-storage";
import type { ObjectStorage } from "./object-storage";

/** The driver FILE_STORAGE_URL names: `file://<dir>` (default `<DATA_DIR>/files`) or `s3://<bucket>`. */
export function createObjectStorage(config: Config): ObjectStorage {
  const url = config.files.storageUrl ?? `file://${path.join(config.dataDir, "files")}`;
  if (url.startsWith("file://")) return new DirectoryStorage(path.resolve(url.slice(7)));
  throw new Error(`Unsupported FILE_STORAGE_URL scheme: ${url.split(":")[0]}`);
}
