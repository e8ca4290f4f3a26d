import mongoose from "mongoose";
import { DUPLICATE, unlessDuplicate } from "../../db/errors";
import { notEqual } from "../../db/operators";
import type { ProgressModel, ProgressRecord } from "./progress.model";

type Course = "preOrientation" | "chaplaincy";

/** Every database call on members' course progress and oath. */
export class ProgressRepository {
  constructor(private readonly progress: ProgressModel) {}

  findOf(memberId: string): Promise<ProgressRecord | null> {
    return this.progress.findById(memberId).lean<ProgressRecord>().exec();
  }

  /**
   * Adds completed lessons (a union: nothing is un-completed by a later, shorter list) and, for
   * Chaplaincy 101, sets these answers, in one update. With `required`, only if the course was
   * completed before or the stored record already holds what this save does not bring (those
   * lessons, non-blank answers to those questions): else nothing is written and the answer is
   * null, so a refused completion stores nothing and a concurrent save cannot slip between.
   */
  save(
    owner: { memberId: string; userId: string },
    course: Course,
    progress: { lessonIds: number[]; answers?: Map<number, string> },
    required?: { lessonIds: number[]; answered: number[] },
  ): Promise<ProgressRecord | null> {
    const update: Record<string, unknown> = {
      $addToSet: { [`${course}.completedLessonIds`]: { $each: progress.lessonIds } },
      $setOnInsert: { userId: owner.userId },
    };
    if (progress.answers && progress.answers.size > 0) {
      update.$set = Object.fromEntries(
        [...progress.answers].map(([questionId, answer]) => [
          `chaplaincy.essayAnswers.q${questionId}`,
          answer,
        ]),
      );
    }
    const preconditions = required ? stored(course, required) : [];
    const filter =
      preconditions.length === 0
        ? { _id: owner.memberId }
        : {
            _id: owner.memberId,
            $or: [
              { [`${course}.completedAt`]: notEqual(null) },
              Object.assign({}, ...preconditions) as Record<string, unknown>,
            ],
          };
    return this.progress
      .findOneAndUpdate(filter, update, {
        upsert: preconditions.length === 0,
        returnDocument: "after",
        setDefaultsOnInsert: false,
      })
      .lean<ProgressRecord>()
      .exec();
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
   * Records the oath once: false when one is already recorded (the filter misses, the upsert's
   * insert meets the existing `_id`).
   */
  async recordOath(
    owner: { memberId: string; userId: string },
    oath: NonNullable<ProgressRecord["oath"]>,
  ): Promise<boolean> {
    const written = await unlessDuplicate(
      this.progress
        .updateOne(
          { _id: owner.memberId, oath: null },
          { $set: { oath, completedAt: oath.recordedAt }, $setOnInsert: { userId: owner.userId } },
          { upsert: true },
        )
        .exec(),
    );
    return written !== DUPLICATE;
  }

  ofUser(userId: string): Promise<ProgressRecord[]> {
    return this.progress.find({ userId }).lean<ProgressRecord[]>().exec();
  }

  async deleteAllOfUser(userId: string): Promise<void> {
    await this.progress.deleteMany({ userId }).exec();
  }
}

/** The filter conditions that the stored record holds these lessons and non-blank answers. */
function stored(
  course: Course,
  required: { lessonIds: number[]; answered: number[] },
): Record<string, unknown>[] {
  return [
    ...(required.lessonIds.length > 0
      ? [
          {
            [`${course}.completedLessonIds`]: mongoose.trusted({ $all: required.lessonIds }),
          },
        ]
      : []),
    ...required.answered.map((questionId) => ({
      [`chaplaincy.essayAnswers.q${questionId}`]: mongoose.trusted({ $regex: "\\S" }),
    })),
  ];
}
