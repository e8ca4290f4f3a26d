import { Readable } from "node:stream";
import { uuidv7 } from "../../db/uuid";
import {
  AppError,
  BadRequestError,
  ConflictError,
  EmailNotVerifiedError,
  ForbiddenError,
  NotFoundError,
  UnsupportedMediaTypeError,
  ValidationError,
} from "../../errors/app-errors";
import type { FileConfig } from "../../config";
import { ObjectNotFoundError, type ObjectStorage } from "../../storage/object-storage";
import type { Caller } from "../auth/caller";
import { Role } from "../users/role";
import { IMAGE_TYPES, safeFileName } from "./file-bytes";
import type { FileLinks, LinkQuery } from "./file-links";
import type { FilePurpose, FileView, LinkReader, PublicFileRule } from "./file-refs";
import { FILE_PURPOSES, type FileRecord } from "./file.model";
import type { FileRepository } from "./file.repository";
import { UploadInspector } from "./upload-inspector";

/** What a client may upload, and who. GENERATED files are the service's own. */
const MEMBER_PURPOSES: readonly FilePurpose[] = [
  "REQUIREMENT",
  "PAYMENT_PROOF",
  "PROMISSORY_NOTE",
  "AVATAR",
];
const ADMIN_PURPOSES: readonly FilePurpose[] = ["EVENT_IMAGE", "NEWS_MEDIA"];
/** Every purpose an upload may name (the OpenAPI document lists these). */
export const UPLOAD_PURPOSES: readonly FilePurpose[] = [...MEMBER_PURPOSES, ...ADMIN_PURPOSES];
const IMAGE_PURPOSES: readonly FilePurpose[] = ["AVATAR", "EVENT_IMAGE", "NEWS_MEDIA"];
/** Public by their purpose; the others only when the PublicFileRule says so. */
const PUBLIC_PURPOSES: readonly FilePurpose[] = ["EVENT_IMAGE", "NEWS_MEDIA"];
const ALL_TYPES: readonly string[] = ["application/pdf", ...IMAGE_TYPES];

/** Bytes kept in storage, not yet recorded: recorded or discarded by the caller. */
export interface ReceivedFile {
  key: string;
  fileName: string;
  mimeType: string;
  size: number;
  sha256: string;
}

export interface FileRead {
  file: FileRecord;
  body: Readable;
}

/** Uploads, reads and the record of stored files (contract section 10). */
export class FileService {
  constructor(
    private readonly files: FileRepository,
    private readonly storage: ObjectStorage,
    readonly links: FileLinks,
    private readonly config: FileConfig,
    private readonly publicRule: () => PublicFileRule | undefined,
  ) {}

  /** The checks an upload passes before a byte is read: verified email, quota. */
  async admitUpload(caller: Caller): Promise<void> {
    if (!caller.user.isEmailVerified) throw new EmailNotVerifiedError();
    if ((await this.files.countOf(caller.id)) >= this.config.maxPerUser) {
      throw new ConflictError(
        `You have ${this.config.maxPerUser} stored files, the most an account may keep`,
      );
    }
  }

  /** The `purpose` field: 400 when missing or unknown, 403 for an administrators' purpose. */
  checkPurpose(caller: Caller, purpose: string | undefined): FilePurpose {
    if (purpose === undefined || purpose.trim() === "") {
      throw ValidationError.field("purpose", "purpose is required");
    }
    const value = purpose.trim() as FilePurpose;
    if (ADMIN_PURPOSES.includes(value)) {
      if (caller.role !== Role.ADMIN) throw new ForbiddenError("Only administrators upload this");
      return value;
    }
    if (!MEMBER_PURPOSES.includes(value)) {
      throw ValidationError.field(
        "purpose",
        `purpose must be one of ${[...MEMBER_PURPOSES, ...ADMIN_PURPOSES].join(", ")}`,
      );
    }
    return value;
  }

  /**
   * Streams `body` into storage, checking it on the way (size, type, emptiness). On any
   * failure nothing is left in storage and the reason is thrown: the inspector's (413, 415,
   * 400), a broken body's (400), or the storage's own.
   */
  async receive(
    body: Readable,
    clientName: string | undefined,
    purpose?: FilePurpose,
  ): Promise<ReceivedFile> {
    const key = uuidv7();
    const allowed = purpose && IMAGE_PURPOSES.includes(purpose) ? IMAGE_TYPES : ALL_TYPES;
    const inspector = new UploadInspector(this.config.maxBytes, allowed);
    let broken: Error | null = null;
    body.on("error", (error: Error) => {
      broken = error;
      inspector.destroy(error);
    });
    // Once refused, the rest of the upload is read and dropped, so the request can still end.
    inspector.on("error", () => {
      body.unpipe(inspector);
      body.resume();
    });
    body.pipe(inspector);
    try {
      await this.storage.put(key, inspector);
    } catch (error) {
      await this.storage.delete(key);
      if (inspector.failure) throw inspector.failure;
      if (broken || error instanceof AppError) {
        throw new BadRequestError("The upload ended before the file was complete");
      }
      throw error;
    }
    return {
      key,
      fileName: safeFileName(clientName, inspector.mimeType!),
      mimeType: inspector.mimeType!,
      size: inspector.size,
      sha256: inspector.sha256,
    };
  }

  /** Records received bytes for `caller`, or removes them if the purpose refuses their type. */
  async record(caller: Caller, received: ReceivedFile, purpose: FilePurpose): Promise<FileView> {
    try {
      if (IMAGE_PURPOSES.includes(purpose) && !IMAGE_TYPES.includes(received.mimeType)) {
        throw new UnsupportedMediaTypeError("This purpose takes JPEG, PNG or WebP images only");
      }
      const now = new Date();
      const record = await this.files.insert({
        _id: received.key,
        ownerId: caller.id,
        purpose,
        fileName: received.fileName,
        mimeType: received.mimeType,
        size: received.size,
        sha256: received.sha256,
        storageKey: received.key,
        attachedAt: null,
        unnamedSince: now,
      });
      return this.view(record, "private");
    } catch (error) {
      await this.discard(received);
      throw error;
    }
  }

  async discard(received: ReceivedFile): Promise<void> {
    await this.storage.delete(received.key);
  }

  /** Bytes the service made itself: a private file, named by a record from the start. */
  async storeGenerated(input: {
    ownerId: string;
    fileName: string;
    mimeType: string;
    bytes: Buffer;
  }): Promise<FileView> {
    const received = await this.receive(Readable.from([input.bytes]), input.fileName);
    const now = new Date();
    const record = await this.files.insert({
      _id: received.key,
      ownerId: input.ownerId,
      purpose: "GENERATED",
      fileName: received.fileName,
      mimeType: received.mimeType,
      size: received.size,
      sha256: received.sha256,
      storageKey: received.key,
      attachedAt: now,
      unnamedSince: null,
    });
    return this.view(record, "private");
  }

  /** The caller's own files, newest first. */
  async listOwn(caller: Caller, window: { page: number; limit: number }) {
    const { records, total } = await this.files.pageOf(caller.id, window);
    return { views: records.map((record) => this.view(record, "private")), total };
  }

  /**
   * A private file for its owner or an administrator (by Bearer), or for anyone with an
   * unaltered, unexpired link. Every other case, a malformed id included, is the same 404.
   * `adminRead` names the administrator who read someone else's file, by Bearer or by a link
   * rendered for them (the caller audits it); null for every other read.
   */
  async readPrivate(
    id: string,
    access: { caller?: Caller; link: LinkQuery },
  ): Promise<FileRead & { adminRead: LinkReader | null }> {
    const file = await this.findOrNotFound(id);
    const caller = access.caller;
    let reader: LinkReader | null;
    if (caller !== undefined && (caller.id === file.ownerId || caller.role === Role.ADMIN)) {
      reader = caller;
    } else {
      const link = this.links.verify(file._id, access.link);
      if (!link) throw notFound();
      // Only links rendered for an administrator name a reader (see `view`).
      reader = link.reader === null ? null : { id: link.reader, role: Role.ADMIN };
    }
    const adminRead =
      reader !== null && reader.role === Role.ADMIN && reader.id !== file.ownerId
        ? { id: reader.id, role: reader.role }
        : null;
    return { file, body: await this.bytesOf(file), adminRead };
  }

  /** A file public by its purpose, or one the PublicFileRule opens (a listed member's avatar). */
  async readPublic(id: string): Promise<FileRead> {
    const file = await this.findOrNotFound(id);
    if (!(await this.isPublic(file))) throw notFound();
    return { file, body: await this.bytesOf(file) };
  }

  async readBytes(id: string): Promise<Buffer> {
    const file = await this.findOrNotFound(id);
    const chunks: Buffer[] = [];
    for await (const chunk of await this.bytesOf(file)) chunks.push(chunk as Buffer);
    return Buffer.concat(chunks);
  }

  /**
   * A record as `reader` is shown it. A private link rendered for an administrator who does not
   * own the file names them, so that reading by the link is audited like reading by Bearer.
   */
  view(record: FileRecord, visibility: "private" | "public", reader?: LinkReader): FileView {
    return {
      id: record._id,
      fileUrl:
        visibility === "public"
          ? this.links.publicUrl(record._id)
          : this.links.privateUrl(record._id, auditedReader(reader, record.ownerId)),
      fileName: record.fileName,
      mimeType: record.mimeType,
      size: record.size,
      sha256: record.sha256,
      purpose: record.purpose,
      ownerId: record.ownerId,
      createdAt: record.createdAt,
    };
  }

  private async isPublic(file: FileRecord): Promise<boolean> {
    if (PUBLIC_PURPOSES.includes(file.purpose)) return true;
    const rule = this.publicRule();
    if (!rule || !FILE_PURPOSES.includes(file.purpose)) return false;
    return rule({ id: file._id, ownerId: file.ownerId, purpose: file.purpose });
  }

  private async findOrNotFound(id: string): Promise<FileRecord> {
    const file = /^[0-9a-f-]{36}$/.test(id) ? await this.files.findById(id) : null;
    if (!file) throw notFound();
    return file;
  }

  private async bytesOf(file: FileRecord): Promise<Readable> {
    try {
      return await this.storage.get(file.storageKey);
    } catch (error) {
      // A record whose bytes are gone (erased, swept) reads as no file at all.
      if (error instanceof ObjectNotFoundError) throw notFound();
      throw error;
    }
  }
}

/** The reader a link must name: an administrator reading what someone else owns. */
export function auditedReader(
  reader: LinkReader | undefined,
  ownerId?: string,
): string | undefined {
  return reader?.role === Role.ADMIN && reader.id !== ownerId ? reader.id : undefined;
}

const notFound = () => new NotFoundError("No file with this id");
