import path from "node:path";
import type { Config } from "../config";
import { DirectoryStorage } from "./directory-storage";
import type { ObjectStorage } from "./object-storage";
import { S3Storage } from "./s3-storage";

/** The driver FILE_STORAGE_URL names: `file://<dir>` (default `<DATA_DIR>/files`) or `s3://<bucket>`. */
export function createObjectStorage(config: Config): ObjectStorage {
  const url = config.files.storageUrl ?? `file://${path.join(config.dataDir, "files")}`;
  if (url.startsWith("s3://")) {
    const bucket = new URL(url).host;
    return new S3Storage({ bucket, ...config.files.s3 });
  }
  return new DirectoryStorage(path.resolve(url.slice("file://".length)));
}
