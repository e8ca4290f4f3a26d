import type { ProgressModel, ProgressRecord } from "./progress.model";

type Course = "preOrientation" | "chaplaincy";

/** Every database call on members' course progress and oath. */
export class ProgressRepository {
  constructor(private readonly progress: ProgressModel) {}

  findOf(memberId: string): Promise<ProgressRecord | null> {
    return this.progress.findById(memberId).lean<ProgressRecord>().exec();
  }

  /** Adds completed lessons (a union: nothing is un-completed by a later, shorter list). */
  addLessons(
    owner: { memberId: string; userId: string },
    course: Course,
    lessonIds: number[],
  ): Promise<ProgressRecord> {
    return this.upsert(owner, {
      $addToSet: { [`${course}.completedLessonIds`]: { $each: lessonIds } },
    });
  }

  /** Sets these answers, replacing earlier answers to the same questions. */
  setAnswers(
    owner: { memberId: string; userId: string },
    answers: Map<number, string>,
  ): Promise<ProgressRecord> {
    const set = Object.fromEntries(
      [...answers].map(([questionId, answer]) => [
        `chaplaincy.essayAnswers.q${questionId}`,
        answer,
      ]),
    );
    return this.upsert(owner, { $set: set });
  }

  /** Sets the course's completion time once; a later call keeps the first. */
  async markCompleted(memberId: string, course: Course, at: Date): Promise<void> {
    await this.progress
      .updateOne(
        { _id: memberId, [`${course}.completedAt`]: null },
        { $set: { [`${course}.completedAt`]: at } },
      )
      .exec();
  }

  /**
   * Records the oath once: with one already recorded the filter misses, the upsert's insert
   * meets the existing `_id` and fails with a duplicate key (the service's 409).
   */
  async recordOath(
    owner: { memberId: string; userId: string },
    oath: NonNullable<ProgressRecord["oath"]>,
  ): Promise<void> {
    await this.progress
      .updateOne(
        { _id: owner.memberId, oath: null },
        { $set: { oath, completedAt: oath.recordedAt }, $setOnInsert: { userId: owner.userId } },
        { upsert: true },
      )
      .exec();
  }

  ofUser(userId: string): Promise<ProgressRecord[]> {
    return this.progress.find({ userId }).lean<ProgressRecord[]>().exec();
  }

  async deleteAllOfUser(userId: string): Promise<void> {
    await this.progress.deleteMany({ userId }).exec();
  }

  private async upsert(
    owner: { memberId: string; userId: string },
    update: Record<string, unknown>,
  ): Promise<ProgressRecord> {
    const record = await this.progress
      .findOneAndUpdate(
        { _id: owner.memberId },
        { ...update, $setOnInsert: { userId: owner.userId } },
        { upsert: true, returnDocument: "after", setDefaultsOnInsert: false },
      )
      .lean<ProgressRecord>()
      .exec();
    return record;
  }
}
