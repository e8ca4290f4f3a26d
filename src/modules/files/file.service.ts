import { Readable } from "node:stream";
import {
  ConflictError,
  EmailNotVerifiedError,
  NotFoundError,
  UnsupportedMediaTypeError,
  ValidationError,
} from "../../errors/app-errors";
import type { FileConfig } from "../../config";
import { ObjectNotFoundError, type ObjectStorage } from "../../storage/object-storage";
import type { PageWindow } from "../../db/page-query";
import type { Caller } from "../auth/caller";
import { pageOf, type PageResult } from "../page-result";
import { Role } from "../users/role";
import type { FileIntake, ReceivedFile } from "./file-intake";
import type { FileLinks, LinkQuery } from "./file-links";
import type { FilePurpose, FileView, LinkReader, PublicFileRule } from "./file-refs";
import { FILE_PURPOSES, type FileRecord } from "./file.model";
import type { FileRepository } from "./file.repository";
import {
  ALL_TYPES,
  checkPurpose,
  typesFor,
  type FileReceiver,
  type ReadUpload,
  type UploadOptions,
  type UploadOwner,
} from "./upload-rules";

export interface FileRead {
  file: FileRecord;
  body: Readable;
}

/** What the files module is told by the modules built on it, asked on use. */
export interface FileHooks {
  /** Takes one of the account's uploads of the hour (rate limits), or throws 429. */
  consumeUpload(ownerId: string): Promise<void>;
  /** An AVATAR upload becomes the account's avatar (users). */
  avatarUploaded(ownerId: string, fileId: string): Promise<void>;
  /** Whether a file may be served at /files/public/{id} now: any one saying so opens it. */
  publicRules: readonly PublicFileRule[];
}

/** Uploads, reads and the record of stored files (docs/privacy.md, "Uploaded files"). */
export class FileService {
  constructor(
    private readonly files: FileRepository,
    private readonly storage: ObjectStorage,
    private readonly intake: FileIntake,
    readonly links: FileLinks,
    private readonly config: FileConfig,
    private readonly hooks: () => FileHooks,
  ) {}

  /**
   * One upload, whichever route carries it (POST /files, the site's upload links): the owner
   * admitted (verified email, room in the quota, the hourly limit), the request read by `read`
   * with its file streamed into storage and checked (type by bytes, size, images cleaned), then
   * recorded in a place of the quota; an AVATAR becomes the account's avatar. Whatever refuses
   * it leaves nothing stored.
   */
  async upload(
    owner: UploadOwner,
    read: (receive: FileReceiver) => Promise<ReadUpload>,
    options: UploadOptions = {},
  ): Promise<FileView> {
    if (!owner.isEmailVerified) throw new EmailNotVerifiedError();
    await this.assertRoom(owner.id, 1);
    await this.hooks().consumeUpload(owner.id);
    const form = await read(async (file, name, purposeSoFar) => {
      let purpose = options.purpose;
      try {
        if (!purpose && purposeSoFar !== undefined) purpose = checkPurpose(owner, purposeSoFar);
      } catch (error) {
        file.resume();
        throw error;
      }
      return this.intake.receive(file, name, typesFor(purpose, options.types));
    });
    const received = form.received;
    const refusal = form.unexpected ?? form.failure;
    if (refusal) {
      if (received) await this.intake.discard(received);
      throw refusal;
    }
    if (!received) throw ValidationError.field("file", "A part named `file` is required");
    let purpose: FilePurpose;
    let record: FileRecord | null;
    try {
      purpose = options.purpose ?? checkPurpose(owner, form.purpose);
      if (!typesFor(purpose, options.types).includes(received.mimeType)) {
        throw new UnsupportedMediaTypeError("This purpose takes JPEG, PNG or WebP images only");
      }
      record = await this.files.insertWithinQuota(
        { ...newRecord(owner.id, purpose, received), attachedAt: null, unnamedSince: new Date() },
        this.config.maxPerUser,
      );
      if (!record) throw this.quotaFull();
    } catch (error) {
      await this.intake.discard(received);
      throw error;
    }
    if (purpose === "AVATAR") await this.hooks().avatarUploaded(owner.id, record._id);
    return this.view(record, "private");
  }

  /** Refuses (409) when `count` more uploads would take the account past FILE_MAX_PER_USER. */
  async assertRoom(ownerId: string, count: number): Promise<void> {
    if ((await this.files.countOf(ownerId)) + count > this.config.maxPerUser) {
      throw this.quotaFull();
    }
  }

  /** Bytes the service made itself: a private file, named by a record from the start. */
  async storeGenerated(input: {
    ownerId: string;
    fileName: string;
    mimeType: string;
    bytes: Buffer;
  }): Promise<FileView> {
    const received = await this.intake.receive(
      Readable.from([input.bytes]),
      input.fileName,
      ALL_TYPES,
    );
    const record = await this.files.insert({
      ...newRecord(input.ownerId, "GENERATED", received),
      attachedAt: new Date(),
      unnamedSince: null,
    });
    return this.view(record, "private");
  }

  /** The caller's own files, newest first. */
  async listOwn(caller: Caller, window: PageWindow): Promise<PageResult<FileView>> {
    const { records, total } = await this.files.pageOf(caller.id, window);
    return pageOf(
      window,
      records.map((record) => this.view(record, "private")),
      total,
    );
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

  /**
   * A file a public rule opens now: an image of a PUBLIC event or of a news post that is out, a
   * listed member's current avatar, a shown 2x2 photo. Any other id is the same 404.
   */
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
    if (!FILE_PURPOSES.includes(file.purpose)) return false;
    for (const rule of this.hooks().publicRules) {
      if (await rule({ id: file._id, ownerId: file.ownerId, purpose: file.purpose })) return true;
    }
    return false;
  }

  private quotaFull(): ConflictError {
    return new ConflictError(
      `An account may keep at most ${this.config.maxPerUser} stored files, and this one is full`,
    );
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

/** The record of received bytes; who names it, and since when, is the caller's to add. */
function newRecord(ownerId: string, purpose: FilePurpose, received: ReceivedFile) {
  return {
    _id: received.key,
    ownerId,
    purpose,
    fileName: received.fileName,
    mimeType: received.mimeType,
    size: received.size,
    sha256: received.sha256,
    storageKey: received.key,
    cleanedAt: received.cleanedAt,
  };
}
