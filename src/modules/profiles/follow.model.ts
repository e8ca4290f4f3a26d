import { Schema, type Connection, type Model } from "mongoose";
import { changeStamped } from "../../db/change-stamps";

/** An account following a member's public page. */
export interface FollowRecord {
  _id: string;
  /** The member record followed. */
  memberId: string;
  /** That record's account (erasure of the followed person finds the follows by it). */
  followedUserId: string;
  /** The account that follows. */
  followerId: string;
  createdAt: Date;
  updatedAt: Date;
}

const followSchema = new Schema<FollowRecord>(
  {
    _id: { type: String, required: true },
    memberId: { type: String, required: true },
    followedUserId: { type: String, required: true },
    followerId: { type: String, required: true },
  },
  { timestamps: true, versionKey: false },
);
// One follow per follower and member: following twice is the same follow. It also counts a
// member's followers.
followSchema.index({ memberId: 1, followerId: 1 }, { unique: true });
// Whom an account follows (export, erasure), and who follows an erased account's pages.
followSchema.index({ followerId: 1, createdAt: -1, _id: -1 });
followSchema.index({ followedUserId: 1 });

export type FollowModel = Model<FollowRecord>;

// The public page shows the follower count: every write changes its ETag.
followSchema.plugin(changeStamped, { source: "member_follows" });

export function createFollowModel(connection: Connection): FollowModel {
  return connection.model<FollowRecord>("MemberFollow", followSchema, "member_follows");
}
