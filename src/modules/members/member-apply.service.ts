import { DUPLICATE } from "../../db/errors";
import type { FieldCipher } from "../../db/field-cipher";
import { uuidv7 } from "../../db/uuid";
import { ConflictError, EmailNotVerifiedError, ValidationError } from "../../errors/app-errors";
import type { Caller } from "../auth/caller";
import { fileIdOf, isFileId } from "../files/file-links";
import type { FileRefs } from "../files/file-refs";
import { applicationFields } from "./member-application";
import { duplicateKeysOf } from "./member-duplicates";
import { MemberStatus } from "./member.enums";
import type { ApplyArgs } from "./member.input";
import { openKeyOf, opened, searchTextOf } from "./member.model";
import type { MemberPresenter, MemberReferences } from "./member.presenter";
import type { MemberRepository } from "./member.repository";
import type { Member } from "./member.type";

/** Applying for membership: one open application per person. */
export class MemberApplications {
  constructor(
    private readonly members: MemberRepository,
    private readonly references: MemberReferences,
    private readonly presenter: MemberPresenter,
    private readonly cipher: FieldCipher,
    /** REQUIRE_PRIVACY_CONSENT: an application without privacyConsent is refused. */
    private readonly requirePrivacyConsent: boolean,
    private readonly files: () => FileRefs,
  ) {}

  /** A verified caller applies; a second open application is a 409 (enforced by openKey). */
  async apply(caller: Caller, args: ApplyArgs): Promise<Member> {
    if (!caller.user.isEmailVerified) throw new EmailNotVerifiedError();
    if (this.requirePrivacyConsent && !args.privacyConsent) {
      throw ValidationError.field(
        "privacyConsent",
        "privacyConsent is required: consent to the privacy notice to apply",
      );
    }
    const preferredBranchIds = await this.existingBranches(args.preferredBranchIds ?? []);
    const id = uuidv7();
    // The server's clock, not the client's, dates the application and the consent it carries.
    const receivedAt = new Date();
    const photo = await this.photoOf(caller, args.recentIdPhotoUrl);
    const fields = { ...applicationFields(args, receivedAt, this.cipher), recentIdPhotoUrl: photo };
    try {
      const record = await this.members.insert({
        ...fields,
        ...duplicateKeysOf(opened(fields, this.cipher), this.cipher),
        _id: id,
        userId: caller.id,
        status: MemberStatus.PENDING,
        preferredBranchIds,
        statusHistory: [
          { from: null, to: MemberStatus.PENDING, by: caller.id, at: receivedAt, reason: null },
        ],
        openKey: openKeyOf({
          _id: id,
          userId: caller.id,
          status: MemberStatus.PENDING,
          archivedAt: null,
        }),
        archivedAt: null,
        activeOffices: 0,
        searchEmail: caller.user.email,
        searchText: searchTextOf(fields, caller.user.email),
      });
      if (record === DUPLICATE) {
        throw new ConflictError("You already have a pending or approved membership application");
      }
      // The applicant's own answer: possible duplicates are for administrators only.
      return await this.presenter.presentOne(record, "applicant");
    } catch (error) {
      if (photo !== null && isFileId(photo)) await this.files().release([photo]);
      throw error;
    }
  }

  /** A photo of this service is kept by its id (the caller's own image upload); a URL as given. */
  private async photoOf(caller: Caller, ref: string | null | undefined): Promise<string | null> {
    if (ref === undefined || ref === null || fileIdOf(ref) === null) return ref ?? null;
    return this.files().claim(ref, {
      ownerId: caller.id,
      purposes: ["AVATAR", "REQUIREMENT"],
      field: "recentIdPhotoUrl",
    });
  }

  /** Every id must name a branch of service; the unknown ones are reported by position. */
  private async existingBranches(ids: string[]): Promise<string[]> {
    const unique = [...new Set(ids)];
    if (unique.length === 0) return [];
    const known = await this.references.existingBranchIds(unique);
    const problems = ids.flatMap((id, index) =>
      known.has(id)
        ? []
        : [{ path: `preferredBranchIds.${index}`, message: "No branch of service has this id" }],
    );
    if (problems.length > 0) throw new ValidationError(problems);
    return unique;
  }
}
