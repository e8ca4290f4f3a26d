import { uuidv7 } from "../../db/uuid";
import {
  BadRequestError,
  ConflictError,
  EmailNotVerifiedError,
  ForbiddenError,
  NotFoundError,
  PayloadTooLargeError,
  ValidationError,
} from "../../errors/app-errors";
import type { Caller } from "../auth/caller";
import { sizeInWords } from "../../errors/byte-size";
import type { FileLinks, LinkQuery } from "./file-links";
import type { FileService } from "./file.service";
import {
  SITE_UPLOADERS,
  declaredTypeOf,
  typesInWords,
  type DeclaredFile,
  type SiteUploader,
  type SiteUploaderSlug,
} from "./site-upload-slugs";
import type { UploadTicketRepository } from "./upload-ticket.repository";
import type { FileReceiver, ReadUpload } from "./upload-rules";

/** One file's answer to the presign request: where to PUT it. */
export interface PresignedFile {
  url: string;
  key: string;
  customId: null;
  name: string;
}

/** The PUT's answer the site's client reads (`serverData` is handed to the site's code). */
export interface IngestAnswer {
  url: string;
  appUrl: string;
  ufsUrl: string;
  fileHash: string;
  serverData: { fileId: string; fileUrl: string };
  avatarUrl?: string;
}

/** What a presign request asks: the uploader of its URL, named again by `slug`. */
export interface PresignRequest {
  /** The uploader of the URL the request came to. */
  uploader: SiteUploaderSlug;
  actionType: unknown;
  slug: unknown;
  body: unknown;
  /** Where the request came to (ingest links are absolute; PUBLIC_URL wins when set). */
  origin: string;
}

/**
 * The organisation's site uploads with the `uploadthing` v7 client (docs/web-client.md, "Uploads"):
 * it asks for one link per file (presign), asks each link how much it already holds (HEAD),
 * then PUTs the file to it. The links are this service's own, signed and used once; the file
 * goes through FileService.upload, as one from POST /files does.
 */
export class SiteUploads {
  constructor(
    private readonly tickets: UploadTicketRepository,
    private readonly files: FileService,
    private readonly links: FileLinks,
    private readonly maxBytes: number,
  ) {}

  async presign(caller: Caller, request: PresignRequest): Promise<PresignedFile[]> {
    const uploader: SiteUploader = SITE_UPLOADERS[request.uploader];
    if (request.actionType !== "upload") {
      throw ValidationError.field("actionType", "actionType must be upload");
    }
    if (request.slug !== uploader.slug) {
      throw new NotFoundError(
        `No uploader named ${JSON.stringify(request.slug)} here: this URL takes ${uploader.slug}`,
      );
    }
    const declared = this.declaredFiles(request.body, uploader);
    if (!caller.user.isEmailVerified) throw new EmailNotVerifiedError();
    await this.files.assertRoom(caller.id, declared.length);
    const now = new Date();
    await this.tickets.deleteExpiredOf(caller.id, now);
    const presigned = declared.map((file) => {
      const key = uuidv7();
      const link = this.links.ingestUrl(key, request.origin, now.getTime());
      return { file, key, ...link };
    });
    await this.tickets.insertMany(
      presigned.map(({ key, expiresAt }) => ({
        _id: key,
        ownerId: caller.id,
        role: caller.role,
        slug: uploader.slug,
        expiresAt,
        usedAt: null,
      })),
    );
    return presigned.map(({ file, key, url }) => ({ url, key, customId: null, name: file.name }));
  }

  /** HEAD: an unused link holds nothing yet (a file is taken whole, never resumed). */
  async bytesReceived(ticketId: string, link: LinkQuery): Promise<number> {
    const ticket = await this.validTicket(ticketId, link);
    if (ticket.usedAt !== null) throw new NotFoundError("This upload link was used already");
    return 0;
  }

  /**
   * PUT: the file for the account the link was issued to, once. A Bearer, when the client sends
   * one, must be that account's. `read` reads the request (src/http/multipart-upload.ts).
   */
  async ingest(
    ticketId: string,
    access: { link: LinkQuery; caller?: Caller; origin: string },
    read: (receive: FileReceiver) => Promise<ReadUpload>,
  ): Promise<IngestAnswer> {
    const ticket = await this.validTicket(ticketId, access.link);
    if (access.caller && access.caller.id !== ticket.ownerId) {
      throw new ForbiddenError("This upload link was issued to another account");
    }
    if (!(await this.tickets.claim(ticket._id, new Date()))) {
      throw new ConflictError("This upload link was used already: start the upload again");
    }
    const uploader = SITE_UPLOADERS[ticket.slug as SiteUploaderSlug];
    const owner = { id: ticket.ownerId, role: ticket.role, isEmailVerified: true };
    const view = await this.files.upload(owner, read, {
      purpose: uploader.purpose,
      types: uploader.types,
    });
    const fileUrl = this.links.absolute(view.fileUrl, access.origin);
    return {
      url: fileUrl,
      appUrl: fileUrl,
      ufsUrl: fileUrl,
      fileHash: view.sha256,
      serverData: { fileId: view.id, fileUrl },
      ...(uploader.purpose === "AVATAR" ? { avatarUrl: fileUrl } : {}),
    };
  }

  private async validTicket(ticketId: string, link: LinkQuery) {
    const ticket = this.links.verifyIngest(ticketId, link)
      ? await this.tickets.findById(ticketId)
      : null;
    if (!ticket || !(ticket.slug in SITE_UPLOADERS)) {
      throw new ForbiddenError(
        "This upload link is not valid (altered, or expired): start the upload again",
      );
    }
    return ticket;
  }

  /** The files the client declares, each one the uploader takes; the first problem is thrown. */
  private declaredFiles(body: unknown, uploader: SiteUploader): DeclaredFile[] {
    const files = (body as { files?: unknown } | null)?.files;
    if (!Array.isArray(files) || files.length === 0) {
      throw ValidationError.field("files", "files must list the files to upload");
    }
    if (files.length > uploader.maxFiles) {
      throw ValidationError.field(
        "files",
        uploader.maxFiles === 1
          ? `${uploader.slug} takes one file at a time`
          : `${uploader.slug} takes at most ${uploader.maxFiles} files at a time`,
      );
    }
    return files.map((file: unknown, index) => this.declaredFile(file, index, uploader));
  }

  private declaredFile(value: unknown, index: number, uploader: SiteUploader): DeclaredFile {
    const file = (value ?? {}) as Record<string, unknown>;
    const path = `files.${index}`;
    if (typeof file.name !== "string" || file.name.trim() === "" || file.name.length > 1024) {
      throw ValidationError.field(`${path}.name`, "Each file needs its name");
    }
    const { name } = file;
    if (typeof file.size !== "number" || !Number.isSafeInteger(file.size) || file.size < 0) {
      throw ValidationError.field(`${path}.size`, `The size of ${name} must be a whole number`);
    }
    if (file.size === 0) throw new BadRequestError(`${name} is empty`);
    if (file.size > this.maxBytes) {
      throw new PayloadTooLargeError(
        `${name} is larger than ${sizeInWords(this.maxBytes)}, the most a file may be`,
      );
    }
    const type = declaredTypeOf({ name, type: typeof file.type === "string" ? file.type : "" });
    if (type === null || !uploader.types.includes(type)) {
      throw ValidationError.field(
        `${path}.type`,
        `${name} is not a ${typesInWords(uploader.types)} file`,
      );
    }
    return { name, size: file.size, type };
  }
}
