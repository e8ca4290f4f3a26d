import { randomInt } from "node:crypto";
import { DUPLICATE } from "../../db/errors";
import { uuidv7 } from "../../db/uuid";
import { NotFoundError, ValidationError } from "../../errors/app-errors";
import type { FileRefs } from "../files/file-refs";
import type { CertificateRecord } from "./certificate.model";
import type { CertificateChanges, CertificateRepository } from "./certificate.repository";
import type { CreateCertificateArgs, UpdateCertificateArgs } from "./certificate.input";
import type { MemberCertificate } from "./certificate.type";
import type { ProfileFiles } from "./profile-files";
import type { ProfileMembers } from "./profile-ports";

/** Letters and digits that cannot be mistaken for one another (no I, O, 0, 1). */
const ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789";
/** Draws before giving up: a collision of 40 random bits is already rare. */
const DRAWS = 5;
/** A date received may be today in any time zone, not later. */
const CLOCK_SLACK_MS = 24 * 3600 * 1000;
const NOT_FOUND = "You have no certificate with this id";

/** `CERT-XXXX-XXXX`: readable over the phone, 40 random bits, unique by its index. */
export function drawCredentialId(): string {
  const chars = Array.from({ length: 8 }, () => ALPHABET[randomInt(ALPHABET.length)]);
  return `CERT-${chars.slice(0, 4).join("")}-${chars.slice(4).join("")}`;
}

export interface CertificateDeps {
  members: () => ProfileMembers;
  files: () => FileRefs;
}

/** The certificates members show on their public page (owner edits). */
export class CertificateService {
  constructor(
    private readonly certificates: CertificateRepository,
    private readonly profileFiles: ProfileFiles,
    private readonly deps: CertificateDeps,
  ) {}

  /** The caller's current record's certificates, with links signed for them. */
  async listOwn(userId: string): Promise<MemberCertificate[]> {
    const owner = await this.deps.members().currentOf(userId);
    if (!owner) return [];
    return this.present(await this.certificates.ofMember(owner.memberId), "private");
  }

  async create(userId: string, args: CreateCertificateArgs): Promise<MemberCertificate> {
    const owner = await this.deps.members().editableOf(userId);
    const dateReceived = receivedAt(args.issuedAt);
    const fileId = await this.claim(userId, args.certificateUrl);
    try {
      for (let draw = 1; draw <= DRAWS; draw += 1) {
        const record = await this.certificates.insert({
          _id: uuidv7(),
          memberId: owner.memberId,
          userId,
          credentialId: drawCredentialId(),
          title: args.title.trim(),
          fileId,
          dateReceived,
        });
        if (record !== DUPLICATE) return (await this.present([record], "private"))[0];
      }
      throw new Error(`Every one of ${DRAWS} credentialIds drawn was taken`);
    } catch (error) {
      await this.profileFiles.release(userId, [fileId]);
      throw error;
    }
  }

  async update(userId: string, args: UpdateCertificateArgs): Promise<MemberCertificate> {
    if (args.title === null) throw ValidationError.field("title", "title cannot be cleared");
    if (args.certificateUrl === null)
      throw ValidationError.field("certificateUrl", "certificateUrl cannot be cleared");
    if (args.issuedAt === null)
      throw ValidationError.field("issuedAt", "issuedAt cannot be cleared");
    const owner = await this.deps.members().editableOf(userId);
    const current = await this.certificates.findOwn(args.id, owner.memberId);
    if (!current) throw new NotFoundError(NOT_FOUND);
    const changes: CertificateChanges = {};
    if (args.title !== undefined) changes.title = args.title.trim();
    if (args.issuedAt !== undefined) changes.dateReceived = receivedAt(args.issuedAt);
    if (args.certificateUrl !== undefined)
      changes.fileId = await this.claim(userId, args.certificateUrl);
    const replaced = changes.fileId !== undefined && changes.fileId !== current.fileId;
    const updated = await this.certificates.updateOwn(args.id, owner.memberId, changes);
    // Deleted meanwhile: the new file is named by nothing; otherwise the old one may be free.
    if (replaced)
      await this.profileFiles.release(userId, [updated ? current.fileId : changes.fileId!]);
    if (!updated) throw new NotFoundError(NOT_FOUND);
    return (await this.present([updated], "private"))[0];
  }

  async delete(userId: string, id: string): Promise<void> {
    const owner = await this.deps.members().editableOf(userId);
    const deleted = await this.certificates.deleteOwn(id, owner.memberId);
    if (!deleted) throw new NotFoundError(NOT_FOUND);
    await this.profileFiles.release(userId, [deleted.fileId]);
  }

  /** The public page's list: the files' public URLs. */
  async publicOf(memberId: string): Promise<MemberCertificate[]> {
    return this.present(await this.certificates.ofMember(memberId), "public");
  }

  /** Subject access: every certificate of the account, links signed for it. */
  async exportOf(userId: string): Promise<MemberCertificate[]> {
    return this.present(await this.certificates.ofUser(userId), "private");
  }

  private claim(userId: string, ref: string): Promise<string> {
    return this.profileFiles.claim(userId, ref, ["CERTIFICATE"], "certificateUrl");
  }

  /** Each certificate with its file's link; one whose file is gone is left out. */
  private async present(
    records: CertificateRecord[],
    visibility: "private" | "public",
  ): Promise<MemberCertificate[]> {
    if (records.length === 0) return [];
    const views = await this.deps.files().describe(
      records.map((record) => record.fileId),
      visibility,
    );
    return records.flatMap((record) => {
      const view = views.get(record.fileId);
      if (!view) return [];
      return [
        {
          id: record._id,
          credentialId: record.credentialId,
          title: record.title,
          certificateUrl: view.fileUrl,
          dateReceived: record.dateReceived,
          createdAt: record.createdAt,
        },
      ];
    });
  }
}

function receivedAt(date: Date): Date {
  if (date.getTime() > Date.now() + CLOCK_SLACK_MS)
    throw ValidationError.field("issuedAt", "issuedAt must not be in the future");
  return date;
}
