import type { ObjectStorage } from "../../storage/object-storage";
import { createObjectStorage } from "../../storage/create-storage";
import type { ModuleBase, ModuleParts } from "../module";
import { FileIntake } from "./file-intake";
import { FileLinks } from "./file-links";
import type { FileRefs, PublicFileRule } from "./file-refs";
import { FileRefsService } from "./file-refs.service";
import { FilePersonalData } from "./file-personal-data";
import { createFileModel } from "./file.model";
import { FileRepository } from "./file.repository";
import { FileService } from "./file.service";
import { cleanStoredImages } from "./image-migration";
import { startOrphanSweep, sweepOrphans } from "./orphan-sweep";
import { SiteUploads } from "./site-uploads.service";
import { createUploadTicketModel } from "./upload-ticket.model";
import { UploadTicketRepository } from "./upload-ticket.repository";

/** What the files module is given by the modules built on it, asked on use. */
export interface FilesModuleDeps {
  /**
   * Open files at /files/public/{id} while they hold (the modules that know: event images,
   * news media, avatars and 2x2 photos). Any one saying yes opens a file.
   */
  publicRules: PublicFileRule[];
  /** An AVATAR upload becomes the account's avatar (users). */
  avatarUploaded(ownerId: string, fileId: string): Promise<void>;
}

export interface FilesModuleOptions extends ModuleBase {
  /** The links' key is derived from it (src/modules/files/file-links.ts). */
  jwtSecret: string;
  /** Tests and the bench hand a driver of their own; otherwise FILE_STORAGE_URL decides. */
  storage?: ObjectStorage;
  /** Takes one of an account's uploads of the hour, or throws 429 (src/rate-limits). */
  consumeUpload: (accountId: string) => Promise<void>;
  /** Asked on use: the modules that know consent are built after this one. */
  deps: () => FilesModuleDeps;
  /** The service's own URL, which links start with (src/service-url.ts); else PUBLIC_URL. */
  origin?: () => string;
}

/** Stored files: uploads, private and public reads, and the FileRefs port for other modules. */
export function createFilesModule({
  connection,
  config,
  log,
  jwtSecret,
  storage,
  consumeUpload,
  deps,
  origin,
}: FilesModuleOptions) {
  const model = createFileModel(connection);
  const ticketModel = createUploadTicketModel(connection);
  const repository = new FileRepository(model);
  const tickets = new UploadTicketRepository(ticketModel);
  const store = storage ?? createObjectStorage(config);
  const intake = new FileIntake(store, config.files.maxBytes);
  const links = new FileLinks(
    jwtSecret,
    config.files.linkTtlSeconds,
    origin ?? config.publicUrl ?? "",
  );
  const files = new FileService(repository, store, intake, links, config.files, () => ({
    consumeUpload,
    ...deps(),
  }));
  const siteUploads = new SiteUploads(tickets, files, links, config.files.maxBytes);
  const refs: FileRefs = new FileRefsService(repository, files);
  const sweepOnce = () => sweepOrphans(repository, store, config.files.orphanHours);
  const sweep = startOrphanSweep(sweepOnce, log, config.files.orphanSweepSeconds * 1000);
  return {
    services: { files, siteUploads },
    /** The port other modules are given through their deps (src/services.ts). */
    refs,
    /** The account's files in subject access and erasure (src/modules/privacy). */
    personalData: new FilePersonalData(repository, store, files, tickets),
    /** The driver itself: the bench compares reads through it with reads over HTTP. */
    storage: store,
    repository,
    sweepOnce,
    models: [model, ticketModel],
    migrations: [
      { name: "image metadata stripped", run: () => cleanStoredImages(repository, store, log) },
    ],
    close: async () => {
      await sweep.stop();
      await store.close();
    },
  } satisfies ModuleParts & Record<string, unknown>;
}
