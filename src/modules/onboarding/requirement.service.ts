import { isDuplicateKeyError } from "../../db/errors";
import { ConflictError, NotFoundError, ValidationError } from "../../errors/app-errors";
import { Pagination, type Page } from "../../graphql/envelopes";
import type { PageArgs } from "../../graphql/paging";
import { requirementReviewMail } from "../../mail/onboarding-templates";
import type { Caller } from "../auth/caller";
import type { FileRefs, FileView, LinkReader } from "../files/file-refs";
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

/** The 2x2 photo's state for the REQUIREMENTS step. */
export type PhotoState = "MISSING" | "PENDING" | "APPROVED" | "REJECTED";

/** Members' documents and their review (contract §11 "Requirements"). */
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
   * (409). Each file is checked as the caller's REQUIREMENT upload before anything is written.
   */
  async save(caller: Caller, args: SaveRequirementsArgs): Promise<MemberRequirements> {
    const record = await this.records.currentOnboarding(caller.id);
    const seen = new Set<RequirementType>();
    const claimed: { type: RequirementType; fileId: string }[] = [];
    for (const [index, attachment] of args.attachments.entries()) {
      const field = `attachments.${index}`;
      if (seen.has(attachment.type)) {
        throw ValidationError.field(`${field}.type`, `${attachment.type} is named twice`);
      }
      seen.add(attachment.type);
      const ref = attachment.fileId ?? attachment.fileUrl;
      if (!ref)
        throw ValidationError.field(`${field}.fileUrl`, "Give the file's fileUrl or fileId");
      const fileId = await this.files().claim(ref, {
        ownerId: caller.id,
        purposes: ["REQUIREMENT"],
        field: attachment.fileId ? `${field}.fileId` : `${field}.fileUrl`,
      });
      claimed.push({ type: attachment.type, fileId });
    }
    const existing = new Map(
      (await this.requirements.ofMember(record.memberId)).map((row) => [row.type, row] as const),
    );
    for (const { type } of claimed) {
      if (existing.get(type)?.reviewStatus === ReviewStatus.APPROVED) throw approvedStays(type);
    }
    const released: string[] = [];
    for (const { type, fileId } of claimed) {
      const before = existing.get(type);
      if (before?.fileId === fileId) continue;
      try {
        await this.requirements.setFile(record, type, fileId);
      } catch (error) {
        if (isDuplicateKeyError(error)) throw approvedStays(type);
        throw error;
      }
      if (before) released.push(before.fileId);
    }
    if (released.length > 0) await this.files().release(released);
    return this.current(caller);
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
    if (!updated) throw new NotFoundError(`The member has no ${args.type} document`);
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
  async pending(
    args: PageArgs,
    reader: LinkReader,
  ): Promise<Omit<Page<PendingRequirement>, "code" | "message">> {
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
    return { data, pagination: Pagination.of(args.page, args.limit, total) };
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
    const photo = await this.requirements.findOne(memberId, RequirementType.PHOTO_2X2);
    return photo && photo.reviewStatus === ReviewStatus.APPROVED ? photo.fileId : null;
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
  return new ConflictError(`Your ${type} document was already approved and cannot be replaced`);
}
