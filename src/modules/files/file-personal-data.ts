import type { ObjectStorage } from "../../storage/object-storage";
import type { ErasedAccount, PersonalData } from "../privacy/personal-data";
import type { FileView } from "./file-refs";
import type { FileRepository } from "./file.repository";
import type { FileService } from "./file.service";
import type { UploadTicketRepository } from "./upload-ticket.repository";

/**
 * An account's files in subject access (their records, each with a fresh link) and erasure
 * (its upload links first, so none takes a file in meanwhile; then every file's bytes deleted
 * from storage, then its record). Upload links are not exported: they live FILE_LINK_TTL_SECONDS
 * and hold nothing but their owner and uploader.
 */
export class FilePersonalData implements PersonalData<FileView[]> {
  constructor(
    private readonly files: FileRepository,
    private readonly storage: ObjectStorage,
    private readonly service: FileService,
    private readonly tickets: UploadTicketRepository,
  ) {}

  async exportOf(userId: string): Promise<FileView[]> {
    return (await this.files.allOf(userId)).map((record) => this.service.view(record, "private"));
  }

  async erase(account: ErasedAccount): Promise<void> {
    await this.tickets.deleteAllOf(account.id);
    for (const file of await this.files.allOf(account.id)) {
      await this.storage.delete(file.storageKey);
      await this.files.delete(file._id);
    }
  }
}
