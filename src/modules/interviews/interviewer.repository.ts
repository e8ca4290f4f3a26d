import { DUPLICATE, unlessDuplicate, type Duplicate } from "../../db/errors";
import { absent, oneOf } from "../../db/operators";
import { findPage, type FoundPage, type PageWindow } from "../../db/page-query";
import type { InterviewMarkerModel, InterviewerModel, InterviewerRecord } from "./interview.model";

export type NewInterviewer = Omit<InterviewerRecord, "createdAt" | "updatedAt">;
export type InterviewerChanges = Partial<Omit<NewInterviewer, "_id" | "userId" | "email">> & {
  /** null unlinks the account, removes the address. */
  userId?: string | null;
  email?: string | null;
};

/** The fields the start-up migration gives a record written before keys existed. */
export type KeyedFields = Pick<InterviewerRecord, "key" | "name" | "title" | "email"> &
  Partial<Pick<InterviewerRecord, "userId">>;

const SEEDED = "defaults-seeded";

/** Every database call on interviewer records and the module's markers. */
export class InterviewerRepository {
  constructor(
    private readonly interviewers: InterviewerModel,
    private readonly markers: InterviewMarkerModel,
  ) {}

  /** DUPLICATE on a taken key or an account already linked. */
  async insert(record: NewInterviewer): Promise<InterviewerRecord | Duplicate> {
    const created = await unlessDuplicate(this.interviewers.create(record));
    return created === DUPLICATE ? DUPLICATE : created.toObject();
  }

  /** The changed record, or null when none has this id; DUPLICATE as on insert. */
  update(id: string, changes: InterviewerChanges): Promise<InterviewerRecord | null | Duplicate> {
    const set: Record<string, unknown> = {};
    const unset: Record<string, 1> = {};
    for (const [field, value] of Object.entries(changes)) {
      if (value === undefined) continue;
      if (field === "userId" && value === null) unset.userId = 1;
      else set[field] = value;
    }
    return unlessDuplicate(
      this.interviewers
        .findOneAndUpdate(
          { _id: id },
          { $set: set, ...(Object.keys(unset).length > 0 ? { $unset: unset } : {}) },
          { returnDocument: "after", runValidators: true },
        )
        .lean<InterviewerRecord>()
        .exec(),
    );
  }

  /** No longer bookable; null when none has this id. */
  deactivate(id: string): Promise<InterviewerRecord | null> {
    return this.interviewers
      .findOneAndUpdate({ _id: id }, { $set: { active: false } }, { returnDocument: "after" })
      .lean<InterviewerRecord>()
      .exec();
  }

  findById(id: string): Promise<InterviewerRecord | null> {
    return this.interviewers.findById(id).lean<InterviewerRecord>().exec();
  }

  findByKey(key: string): Promise<InterviewerRecord | null> {
    return this.interviewers.findOne({ key }).lean<InterviewerRecord>().exec();
  }

  byIds(ids: readonly string[]): Promise<InterviewerRecord[]> {
    if (ids.length === 0) return Promise.resolve([]);
    return this.interviewers
      .find({ _id: oneOf([...new Set(ids)]) })
      .lean<InterviewerRecord[]>()
      .exec();
  }

  /** The record linked to an account (at most one: unique index). */
  ofAccount(userId: string): Promise<InterviewerRecord | null> {
    return this.interviewers.findOne({ userId }).lean<InterviewerRecord>().exec();
  }

  active(): Promise<InterviewerRecord[]> {
    return this.interviewers
      .find({ active: true })
      .sort({ _id: 1 })
      .lean<InterviewerRecord[]>()
      .exec();
  }

  /** Every record, oldest first (the defaults lead). */
  page(window: PageWindow): Promise<FoundPage<InterviewerRecord>> {
    return findPage(this.interviewers, {}, { _id: 1 }, window);
  }

  async delete(id: string): Promise<boolean> {
    return (await this.interviewers.deleteOne({ _id: id }).exec()).deletedCount === 1;
  }

  /** A person's records: linked to their account, or carrying their address. */
  ofPerson(userId: string, email: string | null): Promise<InterviewerRecord[]> {
    return this.interviewers
      .find(email ? { $or: [{ userId }, { email }] } : { userId })
      .lean<InterviewerRecord[]>()
      .exec();
  }

  async deleteOfPerson(userId: string, email: string | null): Promise<void> {
    await this.interviewers.deleteMany({ userId }).exec();
    if (email) await this.interviewers.deleteMany({ email }).exec();
  }

  /** Records written before keys existed. */
  withoutKey(): AsyncIterable<InterviewerRecord> {
    return this.interviewers
      .find({ key: absent() })
      .lean<InterviewerRecord[]>()
      .cursor({ batchSize: 500 });
  }

  async keyTaken(key: string): Promise<boolean> {
    return (await this.interviewers.exists({ key }).exec()) !== null;
  }

  /** Gives a record its key and person once; false when another instance got there first. */
  async migrate(id: string, fields: KeyedFields): Promise<boolean> {
    const { modifiedCount } = await this.interviewers
      .updateOne({ _id: id, key: absent() }, { $set: fields }, { timestamps: false })
      .exec();
    return modifiedCount === 1;
  }

  async defaultsSeeded(): Promise<boolean> {
    return (await this.markers.exists({ _id: SEEDED }).exec()) !== null;
  }

  /** Inserts the record unless one has its id; answers whether it did. */
  async seed(record: NewInterviewer): Promise<boolean> {
    const { _id, ...fields } = record;
    const result = await this.interviewers
      .updateOne({ _id }, { $setOnInsert: fields }, { upsert: true, timestamps: true })
      .exec();
    return result.upsertedCount === 1;
  }

  async markSeeded(): Promise<void> {
    await this.markers
      .updateOne({ _id: SEEDED }, { $setOnInsert: { at: new Date() } }, { upsert: true })
      .exec();
  }
}
