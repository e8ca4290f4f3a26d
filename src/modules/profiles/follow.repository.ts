import { isDuplicateKeyError } from "../../db/errors";
import { uuidv7 } from "../../db/uuid";
import type { FollowModel, FollowRecord } from "./follow.model";

/** Every database call on follows. */
export class FollowRepository {
  constructor(private readonly follows: FollowModel) {}

  /** Idempotent: a second follow of the same member meets the unique index and changes nothing. */
  async follow(memberId: string, followedUserId: string, followerId: string): Promise<void> {
    try {
      await this.follows.create({ _id: uuidv7(), memberId, followedUserId, followerId });
    } catch (error) {
      if (!isDuplicateKeyError(error)) throw error;
    }
  }

  async unfollow(memberId: string, followerId: string): Promise<void> {
    await this.follows.deleteOne({ memberId, followerId }).exec();
  }

  async isFollowing(memberId: string, followerId: string): Promise<boolean> {
    return (await this.follows.exists({ memberId, followerId }).exec()) !== null;
  }

  count(memberId: string): Promise<number> {
    return this.follows.countDocuments({ memberId }).exec();
  }

  /** How many follows the account's pages have. */
  countOfFollowed(followedUserId: string): Promise<number> {
    return this.follows.countDocuments({ followedUserId }).exec();
  }

  /** Whom the account follows, newest first. */
  ofFollower(followerId: string): Promise<FollowRecord[]> {
    return this.follows
      .find({ followerId })
      .sort({ createdAt: -1, _id: -1 })
      .lean<FollowRecord[]>()
      .exec();
  }

  /** Erasure: the account's follows, and every follow of its pages. */
  async deleteOfUser(userId: string): Promise<void> {
    await this.follows.deleteMany({ followerId: userId }).exec();
    await this.follows.deleteMany({ followedUserId: userId }).exec();
  }
}
