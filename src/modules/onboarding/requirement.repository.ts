import { DUPLICATE, unlessDuplicate } from "../../db/errors";
import { notEqual } from "../../db/operators";
import { findPage, type FoundPage, type PageWindow } from "../../db/page-query";
import { uuidv7 } from "../../db/uuid";
import {
  ReviewStatus,
  type RequirementModel,
  type RequirementRecord,
  type RequirementType,
} from "./requirement.model";

/** Every database call on members' requirement documents. */
export class RequirementRepository {
  constructor(private readonly requirements: RequirementModel) {}

  ofMember(memberId: string): Promise<RequirementRecord[]> {
    return this.requirements.find({ memberId }).lean<RequirementRecord[]>().exec();
  }

  findOne(memberId: string, type: RequirementType): Promise<RequirementRecord | null> {
    return this.requirements.findOne({ memberId, type }).lean<RequirementRecord>().exec();
  }

  /**
   * Names a new file for the type, back to PENDING, unless the stored one was APPROVED: then
   * the filter finds nothing, the upsert tries an insert and the unique (memberId, type) index
   * refuses it, so no race replaces it: null.
   */
  async setFile(
    owner: { memberId: string; userId: string },
    type: RequirementType,
    fileId: string,
  ): Promise<RequirementRecord | null> {
    const saved = await unlessDuplicate(
      this.requirements
        .findOneAndUpdate(
          { memberId: owner.memberId, type, reviewStatus: notEqual(ReviewStatus.APPROVED) },
          {
            $set: {
              fileId,
              reviewStatus: ReviewStatus.PENDING,
              reviewNote: null,
              reviewedBy: null,
              reviewedAt: null,
            },
            $setOnInsert: { _id: uuidv7(), userId: owner.userId },
          },
          { upsert: true, returnDocument: "after" },
        )
        .lean<RequirementRecord>()
        .exec(),
    );
    return saved === DUPLICATE ? null : saved;
  }

  review(
    memberId: string,
    type: RequirementType,
    review: { reviewStatus: ReviewStatus; reviewNote: string | null; reviewedBy: string },
  ): Promise<RequirementRecord | null> {
    return this.requirements
      .findOneAndUpdate(
        { memberId, type },
        { $set: { ...review, reviewedAt: new Date() } },
        { returnDocument: "after" },
      )
      .lean<RequirementRecord>()
      .exec();
  }

  /** Documents waiting for review, oldest first. */
  pending(window: PageWindow): Promise<FoundPage<RequirementRecord>> {
    return findPage(
      this.requirements,
      { reviewStatus: ReviewStatus.PENDING },
      { updatedAt: 1, _id: 1 },
      window,
    );
  }

  ofUser(userId: string): Promise<RequirementRecord[]> {
    return this.requirements.find({ userId }).lean<RequirementRecord[]>().exec();
  }

  async deleteAllOfUser(userId: string): Promise<void> {
    await this.requirements.deleteMany({ userId }).exec();
  }
}
