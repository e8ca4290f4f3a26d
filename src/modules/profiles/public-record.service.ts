import { uuidv7 } from "../../db/uuid";
import { NotFoundError, ValidationError } from "../../errors/app-errors";
import type { FileRefs, FileView } from "../files/file-refs";
import { cleanCaption } from "../news/caption-policy";
import type { ProfileFiles } from "./profile-files";
import type { ProfileMembers } from "./profile-ports";
import type { PublicRecordAttachmentInput } from "./public-record.input";
import type { CreatePublicRecordArgs, UpdatePublicRecordArgs } from "./public-record.input";
import type { AttachmentRecord, PublicRecordRecord } from "./public-record.model";
import type { PublicRecordChanges, PublicRecordRepository } from "./public-record.repository";
import type { MemberPublicRecord } from "./public-record.type";

/** The most text a description may hold once cleaned; the HTML sent may be longer. */
export const DESCRIPTION_TEXT_MAX = 3000;
const NOT_FOUND = "You have no public record with this id";

/** Characters of text in cleaned HTML: tags left out, an entity counted as one. */
export function textLength(html: string): number {
  return html.replace(/<[^>]*>/g, "").replace(/&(?:#\d+|#x[0-9a-f]+|[a-z][a-z0-9]*);/gi, "x")
    .length;
}

/** The description as stored: formatting tags only, at most DESCRIPTION_TEXT_MAX of text. */
export function cleanDescription(html: string): string {
  const cleaned = cleanCaption(html);
  if (textLength(cleaned) > DESCRIPTION_TEXT_MAX)
    throw ValidationError.field(
      "shortDescription",
      `shortDescription must hold at most ${DESCRIPTION_TEXT_MAX} characters of text`,
    );
  return cleaned;
}

export interface PublicRecordDeps {
  members: () => ProfileMembers;
  files: () => FileRefs;
}

/** The public records members report on their page (owner edits). */
export class PublicRecordService {
  constructor(
    private readonly records: PublicRecordRepository,
    private readonly profileFiles: ProfileFiles,
    private readonly deps: PublicRecordDeps,
  ) {}

  /** The caller's current record's public records, drafts included, links signed for them. */
  async listOwn(userId: string): Promise<MemberPublicRecord[]> {
    const owner = await this.deps.members().currentOf(userId);
    if (!owner) return [];
    return this.present(await this.records.ofMember(owner.memberId), "private");
  }

  async create(userId: string, args: CreatePublicRecordArgs): Promise<MemberPublicRecord> {
    const owner = await this.deps.members().editableOf(userId);
    const shortDescription = cleanDescription(args.shortDescription);
    const attachments = await this.attachments(userId, args.attachments ?? [], []);
    try {
      const record = await this.records.insert({
        _id: uuidv7(),
        memberId: owner.memberId,
        userId,
        title: args.title.trim(),
        shortDescription,
        type: args.type,
        eventAt: args.eventAt,
        location: args.location.trim(),
        status: args.status,
        attachments,
      });
      return (await this.present([record], "private"))[0];
    } catch (error) {
      await this.profileFiles.release(userId, filesOf(attachments));
      throw error;
    }
  }

  async update(userId: string, args: UpdatePublicRecordArgs): Promise<MemberPublicRecord> {
    for (const field of ["title", "type", "eventAt", "location", "status"] as const) {
      if (args[field] === null) throw ValidationError.field(field, `${field} cannot be cleared`);
    }
    const owner = await this.deps.members().editableOf(userId);
    const current = await this.records.findOwn(args.id, owner.memberId);
    if (!current) throw new NotFoundError(NOT_FOUND);
    const changes: PublicRecordChanges = {};
    if (args.title) changes.title = args.title.trim();
    if (args.shortDescription !== undefined)
      changes.shortDescription = cleanDescription(args.shortDescription ?? "");
    if (args.type) changes.type = args.type;
    if (args.eventAt) changes.eventAt = args.eventAt;
    if (args.location) changes.location = args.location.trim();
    if (args.status) changes.status = args.status;
    if (args.attachments !== undefined)
      changes.attachments = await this.attachments(
        userId,
        args.attachments ?? [],
        current.attachments,
      );
    const updated = await this.records.updateOwn(args.id, owner.memberId, changes);
    if (changes.attachments) {
      // The files the record stopped showing; or, deleted meanwhile, the ones just claimed.
      const kept = new Set(filesOf(changes.attachments));
      const dropped = updated
        ? filesOf(current.attachments).filter((id) => !kept.has(id))
        : [...kept];
      await this.profileFiles.release(userId, dropped);
    }
    if (!updated) throw new NotFoundError(NOT_FOUND);
    return (await this.present([updated], "private"))[0];
  }

  async delete(userId: string, id: string): Promise<void> {
    const owner = await this.deps.members().editableOf(userId);
    const deleted = await this.records.deleteOwn(id, owner.memberId);
    if (!deleted) throw new NotFoundError(NOT_FOUND);
    await this.profileFiles.release(userId, filesOf(deleted.attachments));
  }

  /** The public page's list: PUBLISHED records, their pictures' public URLs. */
  async publicOf(memberId: string): Promise<MemberPublicRecord[]> {
    return this.present(await this.records.publishedOf(memberId), "public");
  }

  /** Subject access: every record of the account, drafts included, links signed for it. */
  async exportOf(userId: string): Promise<MemberPublicRecord[]> {
    return this.present(await this.records.ofUser(userId), "private");
  }

  /**
   * The pictures a write asks for, in its order, each file once: the caller's PUBLIC_RECORD
   * uploads (a picture the record already shows keeps its id and date). A refused list names
   * nothing: what this call claimed goes back unless the page still names it.
   */
  private async attachments(
    userId: string,
    inputs: PublicRecordAttachmentInput[],
    current: AttachmentRecord[],
  ): Promise<AttachmentRecord[]> {
    const claimed: { fileId: string; input: PublicRecordAttachmentInput }[] = [];
    try {
      for (const [index, input] of inputs.entries()) {
        const field = `attachments.${index}.fileUrl`;
        const fileId = await this.profileFiles.claim(
          userId,
          input.fileUrl,
          ["PUBLIC_RECORD"],
          field,
        );
        if (!claimed.some((item) => item.fileId === fileId)) claimed.push({ fileId, input });
      }
    } catch (error) {
      await this.profileFiles.release(userId, filesOf(claimed));
      throw error;
    }
    const views = await this.deps.files().describe(filesOf(claimed), "private");
    const shown = new Map(current.map((item) => [item.fileId, item] as const));
    const now = new Date();
    return claimed.map(({ fileId, input }, sortOrder) => {
      const before = shown.get(fileId);
      const view = views.get(fileId)!;
      return {
        _id: before?._id ?? uuidv7(),
        fileId,
        fileName: input.fileName?.trim() || before?.fileName || view.fileName,
        mimeType: view.mimeType,
        sortOrder,
        createdAt: before?.createdAt ?? now,
      };
    });
  }

  /** Each record with its pictures' links; a picture whose file is gone is left out. */
  private async present(
    records: PublicRecordRecord[],
    visibility: "private" | "public",
  ): Promise<MemberPublicRecord[]> {
    const ids = records.flatMap((record) => filesOf(record.attachments));
    const views =
      ids.length > 0
        ? await this.deps.files().describe(ids, visibility)
        : new Map<string, FileView>();
    return records.map((record) => ({
      id: record._id,
      title: record.title,
      shortDescription: record.shortDescription,
      type: record.type,
      eventAt: record.eventAt,
      location: record.location,
      status: record.status,
      attachments: record.attachments.flatMap((item) => {
        const view = views.get(item.fileId);
        if (!view) return [];
        return [
          {
            id: item._id,
            fileUrl: view.fileUrl,
            fileName: item.fileName,
            mimeType: item.mimeType,
            sortOrder: item.sortOrder,
            createdAt: item.createdAt,
          },
        ];
      }),
      createdAt: record.createdAt,
      updatedAt: record.updatedAt,
    }));
  }
}

const filesOf = (items: readonly { fileId: string }[]) => items.map((item) => item.fileId);
