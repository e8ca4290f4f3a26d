import type { ObjectStorage } from "../../storage/object-storage";
import { createObjectStorage } from "../../storage/create-storage";
import type { ModuleBase, ModuleParts } from "../module";
import { FileLinks } from "./file-links";
import type { FileRefs, PublicFileRule } from "./file-refs";
import { FileRefsService } from "./file-refs.service";
import { FilePersonalData } from "./file-personal-data";
import { createFileModel } from "./file.model";
import { FileRepository } from "./file.repository";
import { FileService } from "./file.service";
import { startOrphanSweep, sweepOrphans } from "./orphan-sweep";

/** What the files module may be given later by the modules built on it. */
export interface FilesModuleDeps {
  /** Opens avatars and approved photos at /files/public/{id} (the module that knows consent). */
  publicRule?: PublicFileRule;
}

export interface FilesModuleOptions extends ModuleBase {
  /** The links' key is derived from it (src/modules/files/file-links.ts). */
  jwtSecret: string;
  /** Tests and the bench hand a driver of their own; otherwise FILE_STORAGE_URL decides. */
  storage?: ObjectStorage;
  /** Asked on use: the modules that know consent are built after this one. */
  deps?: () => FilesModuleDeps;
}

/** Stored files: uploads, private and public reads, and the FileRefs port for other modules. */
export function createFilesModule({
  connection,
  config,
  log,
  jwtSecret,
  storage,
  deps,
}: FilesModuleOptions) {
  const model = createFileModel(connection);
  const repository = new FileRepository(model);
  const store = storage ?? createObjectStorage(config);
  const links = new FileLinks(jwtSecret, config.files.linkTtlSeconds, config.publicUrl ?? "");
  const files = new FileService(repository, store, links, config.files, () => deps?.().publicRule);
  const refs: FileRefs = new FileRefsService(repository, files);
  const sweepOnce = () => sweepOrphans(repository, store, config.files.orphanHours);
  const sweep = startOrphanSweep(sweepOnce, log, config.files.orphanSweepSeconds * 1000);
  return {
    services: { files },
    /** The port other modules are given through their deps (src/services.ts). */
    refs,
    /** The account's files in subject access and erasure (src/modules/privacy). */
    personalData: new FilePersonalData(repository, store, files),
    /** The driver itself: the bench compares reads through it with reads over HTTP. */
    storage: store,
    repository,
    sweepOnce,
    models: [model],
    close: async () => {
      await sweep.stop();
      await store.close();
    },
  } satisfies ModuleParts & Record<string, unknown>;
}
