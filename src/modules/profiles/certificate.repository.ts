import { DUPLICATE, unlessDuplicate, type Duplicate } from "../../db/errors";
import { oneOf } from "../../db/operators";
import type { CertificateModel, CertificateRecord } from "./certificate.model";

export type CertificateChanges = Partial<
  Pick<CertificateRecord, "title" | "fileId" | "dateReceived">
>;

const NEWEST_RECEIVED = { dateReceived: -1, _id: -1 } as const;

/** Every database call on members' certificates. */
export class CertificateRepository {
  constructor(private readonly certificates: CertificateModel) {}

  /** DUPLICATE when the credentialId is taken (the caller draws again). */
  async insert(
    record: Omit<CertificateRecord, "createdAt" | "updatedAt">,
  ): Promise<CertificateRecord | Duplicate> {
    const created = await unlessDuplicate(this.certificates.create(record));
    return created === DUPLICATE ? DUPLICATE : created.toObject<CertificateRecord>();
  }

  ofMember(memberId: string): Promise<CertificateRecord[]> {
    return this.certificates
      .find({ memberId })
      .sort(NEWEST_RECEIVED)
      .lean<CertificateRecord[]>()
      .exec();
  }

  /** One of the member's own; null for anyone else's id. */
  findOwn(id: string, memberId: string): Promise<CertificateRecord | null> {
    return this.certificates.findOne({ _id: id, memberId }).lean<CertificateRecord>().exec();
  }

  updateOwn(
    id: string,
    memberId: string,
    changes: CertificateChanges,
  ): Promise<CertificateRecord | null> {
    return this.certificates
      .findOneAndUpdate({ _id: id, memberId }, { $set: changes }, { returnDocument: "after" })
      .lean<CertificateRecord>()
      .exec();
  }

  deleteOwn(id: string, memberId: string): Promise<CertificateRecord | null> {
    return this.certificates
      .findOneAndDelete({ _id: id, memberId })
      .lean<CertificateRecord>()
      .exec();
  }

  async membersShowing(fileId: string): Promise<string[]> {
    const rows = await this.certificates
      .find({ fileId }, { memberId: 1 })
      .lean<Pick<CertificateRecord, "memberId">[]>()
      .exec();
    return rows.map((row) => row.memberId);
  }

  /** Which of these files the account's certificates name. */
  async namedAmong(userId: string, fileIds: readonly string[]): Promise<string[]> {
    const rows = await this.certificates
      .find({ userId, fileId: oneOf([...fileIds]) }, { fileId: 1 })
      .lean<Pick<CertificateRecord, "fileId">[]>()
      .exec();
    return rows.map((row) => row.fileId);
  }

  ofUser(userId: string): Promise<CertificateRecord[]> {
    return this.certificates
      .find({ userId })
      .sort({ createdAt: -1, _id: -1 })
      .lean<CertificateRecord[]>()
      .exec();
  }

  async deleteOfUser(userId: string): Promise<void> {
    await this.certificates.deleteMany({ userId }).exec();
  }
}
