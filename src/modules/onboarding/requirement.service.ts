import { ConflictError, NotFoundError, ValidationError } from "../../errors/app-errors";
import { pageOf, type PageResult } from "../page-result";
import type { PageArgs } from "../../graphql/paging";
import { requirementReviewMail } from "../../mail/onboarding-templates";
import { documentName } from "../../mail/status-words";
import type { Caller } from "../auth/caller";
import { fileIdOf } from "../files/file-links";
import type { FileRefs, FileView, LinkReader } from "../files/file-refs";
import type { ApprovedPhoto } from "./onboarding-facts";
import type { OnboardingMail } from "./onboarding-mail";
import type { OnboardingRecords } from "./onboarding-members";
import { RequirementType, ReviewStatus, type RequirementRecord } from "./requirement.model";
import type { RequirementRepository } from "./requirement.repository";
import type { ReviewRequirementArgs, SaveRequirementsArgs } from "./requirement.input";
import type {
  MemberRequirements,
  PendingRequirement,
  Requirement,
  RequirementAttachments,
} from "./requirement.type";

const PHOTO_TYPES = ["image/png", "image/jpeg", "image/webp"];

/** The 2x2 photo's state for the REQUIREMENTS step. */
export type PhotoState = "MISSING" | "PENDING" | "APPROVED" | "REJECTED";

/** Members' documents and their review. */
export class RequirementService {
  constructor(
    private readonly requirements: RequirementRepository,
    private readonly records: OnboardingRecords,
    private readonly files: () => FileRefs,
    private readonly mail: OnboardingMail,
  ) {}

  /** GET /members/current/requirements: any caller with an application; 404 without one. */
  async current(caller: Caller): Promise<MemberRequirements> {
    const record = await this.records.current(caller.id);
    if (!record) throw new NotFoundError("You have no membership application yet");
    const stored = await this.requirements.ofMember(record.memberId);
    const requirements = await this.present(stored, caller);
    const attachments = Object.fromEntries(
      Object.values(RequirementType).map((type) => [
        type.toLowerCase(),
        requirements.find((requirement) => requirement.type === type)?.fileUrl ?? null,
      ]),
    ) as unknown as RequirementAttachments;
    return {
      memberId: record.memberId,
      status: record.status as MemberRequirements["status"],
      uniqueId: record.uniqueId,
      attachments,
      requirements,
    };
  }

  /**
   * PUT: one file per type. A new file resets its type to PENDING; an APPROVED document stays
   * (409), though sending its current file again (the client resends its whole list) changes
   * nothing. Every check comes before any write; a refusal hands back the files it claimed.
   */
  async save(caller: Caller, args: SaveRequirementsArgs): Promise<MemberRequirements> {
    const record = await this.records.currentOnboarding(caller.id);
    const existing = new Map(
      (await this.requirements.ofMember(record.memberId)).map((row) => [row.type, row] as const),
    );
    const changes = this.changesOf(args, existing);
    const claimed: { type: RequirementType; fileId: string; field: string }[] = [];
    const written = new Set<string>();
    try {
      for (const change of changes) {
        const fileId = await this.files().claim(change.ref, {
          ownerId: caller.id,
          purposes: ["REQUIREMENT"],
          field: change.field,
        });
        claimed.push({ ...change, fileId });
      }
      await this.checkPhoto(claimed);
      for (const { type, fileId } of claimed) {
        const saved = await this.requirements.setFile(record, type, fileId);
        if (!saved) throw approvedStays(type);
        written.add(fileId);
      }
    } catch (error) {
      const named = new Set([...existing.values()].map((row) => row.fileId));
      const unnamed = claimed
        .map((item) => item.fileId)
        .filter((id) => !named.has(id) && !written.has(id));
      if (unnamed.length > 0) await this.files().release(unnamed);
      throw error;
    }
    // The files the replaced documents had, unless another document still names them.
    const after = new Map([...existing].map(([type, row]) => [type, row.fileId] as const));
    for (const { type, fileId } of claimed) after.set(type, fileId);
    const named = new Set(after.values());
    const released = claimed.flatMap(({ type }) => {
      const before = existing.get(type)?.fileId;
      return before && !named.has(before) ? [before] : [];
    });
    if (released.length > 0) await this.files().release(released);
    return this.current(caller);
  }

  /** The attachments that change something, in order; 400 and 409 before anything is claimed. */
  private changesOf(
    args: SaveRequirementsArgs,
    existing: Map<RequirementType, RequirementRecord>,
  ): { type: RequirementType; ref: string; field: string }[] {
    const seen = new Set<RequirementType>();
    const changes: { type: RequirementType; ref: string; field: string }[] = [];
    for (const [index, attachment] of args.attachments.entries()) {
      const item = `attachments.${index}`;
      if (seen.has(attachment.type)) {
        throw ValidationError.field(`${item}.type`, `${attachment.type} is named twice`);
      }
      seen.add(attachment.type);
      const ref = attachment.fileId ?? attachment.fileUrl;
      if (!ref) throw ValidationError.field(`${item}.fileUrl`, "Give the file's fileUrl or fileId");
      const before = existing.get(attachment.type);
      // Its current file, by id or by any link this service gave for it: nothing to change.
      if (before && fileIdOf(ref) === before.fileId) continue;
      if (before?.reviewStatus === ReviewStatus.APPROVED) throw approvedStays(attachment.type);
      const field = attachment.fileId ? `${item}.fileId` : `${item}.fileUrl`;
      changes.push({ type: attachment.type, ref, field });
    }
    return changes;
  }

  /** The 2x2 photo is a picture: PNG, JPEG or WebP, never a PDF. */
  private async checkPhoto(
    claimed: { type: RequirementType; fileId: string; field: string }[],
  ): Promise<void> {
    const photo = claimed.find((item) => item.type === RequirementType.PHOTO_2X2);
    if (!photo) return;
    const view = (await this.files().describe([photo.fileId], "private")).get(photo.fileId);
    if (!view || !PHOTO_TYPES.includes(view.mimeType)) {
      throw ValidationError.field(photo.field, "The 2x2 photo must be a PNG, JPEG or WebP image");
    }
  }

  /** An administrator's review of one document; the member is mailed the outcome and note. */
  async review(caller: Caller, args: ReviewRequirementArgs): Promise<Requirement> {
    const note = args.note?.trim() || null;
    if (args.reviewStatus === ReviewStatus.REJECTED && !note) {
      throw ValidationError.field(
        "note",
        "Say why the document is rejected: the member is mailed the note",
      );
    }
    const record = await this.records.byId(args.id);
    const updated = await this.requirements.review(record.memberId, args.type, {
      reviewStatus: args.reviewStatus,
      reviewNote: note,
      reviewedBy: caller.id,
    });
    if (!updated) throw new NotFoundError(`The member has no ${documentName(args.type)}`);
    this.mail.toMember(record, (recipient) =>
      requirementReviewMail({
        ...recipient,
        type: args.type,
        reviewStatus: args.reviewStatus,
        note,
      }),
    );
    const [presented] = await this.present([updated], caller);
    return presented;
  }

  /** GET /requirements/pending: documents waiting for review, oldest first. */
  async pending(args: PageArgs, reader: LinkReader): Promise<PageResult<PendingRequirement>> {
    const { records, total } = await this.requirements.pending(args);
    const [presented, members] = await Promise.all([
      this.present(records, reader),
      this.records.members.byIds(records.map((row) => row.memberId)),
    ]);
    const data = records.flatMap((row) => {
      const requirement = presented.find((item) => item.fileId === row.fileId);
      if (!requirement) return [];
      const member = members.get(row.memberId);
      return [
        {
          ...requirement,
          memberId: row.memberId,
          uniqueId: member?.uniqueId ?? null,
          fullName: member?.fullName ?? "",
        },
      ];
    });
    return pageOf(args, data, total);
  }

  /** The REQUIREMENTS step's condition. */
  async photoState(memberId: string): Promise<PhotoState> {
    const photo = await this.requirements.findOne(memberId, RequirementType.PHOTO_2X2);
    return photo ? photo.reviewStatus : "MISSING";
  }

  /** The file of the member's 2x2 photo that is not REJECTED (the ID card), or null. */
  async photo2x2(memberId: string): Promise<string | null> {
    const photo = await this.requirements.findOne(memberId, RequirementType.PHOTO_2X2);
    return photo && photo.reviewStatus !== ReviewStatus.REJECTED ? photo.fileId : null;
  }

  /** The file of the member's 2x2 photo once approved (what a public page may show), or null. */
  async approvedPhoto2x2(memberId: string): Promise<string | null> {
    return (await this.approvedPhoto(memberId))?.fileId ?? null;
  }

  /** The member's 2x2 photo document once approved, or null. */
  async approvedPhoto(memberId: string): Promise<ApprovedPhoto | null> {
    const photo = await this.requirements.findOne(memberId, RequirementType.PHOTO_2X2);
    if (!photo || photo.reviewStatus !== ReviewStatus.APPROVED) return null;
    return { id: photo._id, fileId: photo.fileId, updatedAt: photo.updatedAt };
  }

  /** Every document of the member, as administrators read them. */
  async ofMember(memberId: string, reader: LinkReader): Promise<Requirement[]> {
    return this.present(await this.requirements.ofMember(memberId), reader);
  }

  /**
   * Rows with their files' fresh links, rendered for `reader`; a row whose file is gone is
   * left out.
   */
  private async present(rows: RequirementRecord[], reader: LinkReader): Promise<Requirement[]> {
    if (rows.length === 0) return [];
    const views = await this.files().describe(
      rows.map((row) => row.fileId),
      "private",
      reader,
    );
    return rows.flatMap((row) => {
      const file: FileView | undefined = views.get(row.fileId);
      if (!file) return [];
      return [
        {
          type: row.type,
          fileId: row.fileId,
          fileUrl: file.fileUrl,
          fileName: file.fileName,
          mimeType: file.mimeType,
          reviewStatus: row.reviewStatus,
          reviewNote: row.reviewNote,
          updatedAt: row.updatedAt,
        },
      ];
    });
  }
}

function approvedStays(type: RequirementType): ConflictError {
  return new ConflictError(
    `Your ${documentName(type)} was already accepted and cannot be replaced`,
  );
}
