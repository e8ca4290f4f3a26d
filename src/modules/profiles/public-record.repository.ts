import { oneOf } from "../../db/operators";
import {
  PublicRecordStatus,
  type PublicRecordModel,
  type PublicRecordRecord,
} from "./public-record.model";

export type PublicRecordChanges = Partial<
  Pick<
    PublicRecordRecord,
    "title" | "shortDescription" | "type" | "eventAt" | "location" | "status" | "attachments"
  >
>;

const NEWEST_EVENT = { eventAt: -1, _id: -1 } as const;

/** Every database call on members' public records. */
export class PublicRecordRepository {
  constructor(private readonly records: PublicRecordModel) {}

  async insert(record: Omit<PublicRecordRecord, "createdAt" | "updatedAt">) {
    return (await this.records.create(record)).toObject<PublicRecordRecord>();
  }

  /** The member's records, drafts included (the owner's list). */
  ofMember(memberId: string): Promise<PublicRecordRecord[]> {
    return this.records.find({ memberId }).sort(NEWEST_EVENT).lean<PublicRecordRecord[]>().exec();
  }

  publishedOf(memberId: string): Promise<PublicRecordRecord[]> {
    return this.records
      .find({ memberId, status: PublicRecordStatus.PUBLISHED })
      .sort(NEWEST_EVENT)
      .lean<PublicRecordRecord[]>()
      .exec();
  }

  /** One of the member's own; null for anyone else's id. */
  findOwn(id: string, memberId: string): Promise<PublicRecordRecord | null> {
    return this.records.findOne({ _id: id, memberId }).lean<PublicRecordRecord>().exec();
  }

  updateOwn(
    id: string,
    memberId: string,
    changes: PublicRecordChanges,
  ): Promise<PublicRecordRecord | null> {
    return this.records
      .findOneAndUpdate({ _id: id, memberId }, { $set: changes }, { returnDocument: "after" })
      .lean<PublicRecordRecord>()
      .exec();
  }

  deleteOwn(id: string, memberId: string): Promise<PublicRecordRecord | null> {
    return this.records.findOneAndDelete({ _id: id, memberId }).lean<PublicRecordRecord>().exec();
  }

  /** The member records whose PUBLISHED records show this file. */
  async membersPublishing(fileId: string): Promise<string[]> {
    const rows = await this.records
      .find({ "attachments.fileId": fileId, status: PublicRecordStatus.PUBLISHED }, { memberId: 1 })
      .lean<Pick<PublicRecordRecord, "memberId">[]>()
      .exec();
    return rows.map((row) => row.memberId);
  }

  /** Which of these files the account's records name. */
  async namedAmong(userId: string, fileIds: readonly string[]): Promise<string[]> {
    const rows = await this.records
      .find({ userId, "attachments.fileId": oneOf([...fileIds]) }, { "attachments.fileId": 1 })
      .lean<Pick<PublicRecordRecord, "attachments">[]>()
      .exec();
    const asked = new Set(fileIds);
    return rows.flatMap((row) =>
      row.attachments.map((a) => a.fileId).filter((id) => asked.has(id)),
    );
  }

  ofUser(userId: string): Promise<PublicRecordRecord[]> {
    return this.records
      .find({ userId })
      .sort({ createdAt: -1, _id: -1 })
      .lean<PublicRecordRecord[]>()
      .exec();
  }

  async deleteOfUser(userId: string): Promise<void> {
    await this.records.deleteMany({ userId }).exec();
  }
}
