import type { ObjectStorage } from "../../storage/object-storage";
import type { ErasedAccount, PersonalData } from "../privacy/personal-data";
import type { FileView } from "./file-refs";
import type { FileRepository } from "./file.repository";
import type { FileService } from "./file.service";

/**
 * An account's files in subject access (their records, each with a fresh link) and erasure
 * (every file's bytes deleted from storage, then its record).
 */
export class FilePersonalData implements PersonalData<FileView[]> {
  constructor(
    private readonly files: FileRepository,
    private readonly storage: ObjectStorage,
    private readonly service: FileService,
  ) {}

  async exportOf(userId: string): Promise<FileView[]> {
    return (await this.files.allOf(userId)).map((record) => this.service.view(record, "private"));
  }

  async erase(account: ErasedAccount): Promise<void> {
    for (const file of await this.files.allOf(account.id)) {
      await this.storage.delete(file.storageKey);
      await this.files.delete(file._id);
    }
  }
}
