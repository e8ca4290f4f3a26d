import { ValidationError } from "../../errors/app-errors";
import { fileIdOf } from "./file-links";
import type { FilePurpose, FileRefs, FileView, LinkReader } from "./file-refs";
import type { FileRepository } from "./file.repository";
import type { FileService } from "./file.service";

/** The port other modules use (src/modules/files/file-refs.ts), over the files module. */
export class FileRefsService implements FileRefs {
  constructor(
    private readonly files: FileRepository,
    private readonly service: FileService,
  ) {}

  async claim(
    ref: string,
    owner: { ownerId: string; purposes: readonly FilePurpose[]; field: string },
  ): Promise<string> {
    const id = typeof ref === "string" ? fileIdOf(ref) : null;
    if (id === null || !(await this.files.claim(id, owner.ownerId, owner.purposes))) {
      throw ValidationError.field(
        owner.field,
        `${owner.field} must be a file you uploaded for ${owner.purposes.join(" or ")} (its id or fileUrl)`,
      );
    }
    return id;
  }

  release(ids: readonly string[]): Promise<void> {
    return this.files.release(ids);
  }

  async describe(
    ids: readonly string[],
    visibility: "private" | "public",
    reader?: LinkReader,
  ): Promise<Map<string, FileView>> {
    const records = await this.files.withIds(ids);
    return new Map(
      records.map((record) => [record._id, this.service.view(record, visibility, reader)]),
    );
  }

  storeGenerated(input: {
    ownerId: string;
    fileName: string;
    mimeType: string;
    bytes: Buffer;
  }): Promise<FileView> {
    return this.service.storeGenerated(input);
  }

  read(id: string): Promise<Buffer> {
    return this.service.readBytes(id);
  }
}
