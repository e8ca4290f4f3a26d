import { Schema, type Connection, type Model } from "mongoose";
import { absent } from "../../db/operators";
import { OnboardingStep } from "../onboarding/onboarding-steps";
import { MemberStatus } from "./member.enums";
import type { MemberModel, MemberRecord } from "./member.model";
import { formatUniqueId, manilaYear } from "./unique-id";

/** One running number per year of approval: `_id` `uniqueId:<YYYY>`. */
interface CounterRecord {
  _id: string;
  seq: number;
}

const counterSchema = new Schema<CounterRecord>(
  { _id: { type: String }, seq: { type: Number, required: true } },
  { versionKey: false },
);

export type MemberCounterModel = Model<CounterRecord>;

export function createMemberCounterModel(connection: Connection): MemberCounterModel {
  return connection.model<CounterRecord>("MemberCounter", counterSchema, "member_counters");
}

/**
 * Gives an APPROVED record its uniqueId. The number is taken by one atomic upserted `$inc`, so
 * two approvals never draw the same one; the record takes it only while it has none (a
 * conditional update), so a record approved twice at once keeps the first, and the other
 * number is simply never used. The unique index on `uniqueId` backs both.
 */
export class MemberIdentityRepository {
  constructor(
    private readonly members: MemberModel,
    private readonly counters: MemberCounterModel,
  ) {}

  async assign(memberId: string, approvedAt: Date): Promise<MemberRecord | null> {
    const year = manilaYear(approvedAt);
    const counter = await this.counters
      .findOneAndUpdate(
        { _id: `uniqueId:${year}` },
        { $inc: { seq: 1 } },
        { upsert: true, returnDocument: "after" },
      )
      .lean<CounterRecord>()
      .exec();
    await this.members
      .updateOne(
        { _id: memberId, uniqueId: absent() },
        { $set: { uniqueId: formatUniqueId(year, counter.seq) } },
      )
      .exec();
    return this.members.findById(memberId).lean<MemberRecord>().exec();
  }

  /**
   * Records approved by a version without uniqueIds get one, in the year of their first
   * approval (a migration step). Returns how many.
   */
  async backfill(): Promise<number> {
    const records = await this.members
      .find(
        { status: MemberStatus.APPROVED, uniqueId: absent() },
        { statusHistory: 1, updatedAt: 1 },
      )
      .lean<Pick<MemberRecord, "_id" | "statusHistory" | "updatedAt">[]>()
      .exec();
    for (const record of records) {
      const approvals = record.statusHistory.filter((entry) => entry.to === MemberStatus.APPROVED);
      await this.assign(record._id, approvals[0]?.at ?? record.updatedAt);
    }
    // Their onboarding starts at the first step.
    const started = await this.members
      .updateMany(
        { status: MemberStatus.APPROVED, onboardingStep: null },
        { $set: { onboardingStep: OnboardingStep.REQUIREMENTS } },
      )
      .exec();
    return records.length + started.modifiedCount;
  }
}
