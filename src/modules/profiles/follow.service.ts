import { BadRequestError, NotFoundError } from "../../errors/app-errors";
import type { FollowRepository } from "./follow.repository";
import type { FollowedMember, FollowState } from "./follow.type";
import type { ProfileMembers, ProfileOwner } from "./profile-ports";

/** The public page's one answer for every member that cannot be followed (as for the page). */
const NOT_PUBLIC = "No approved member has this id";

/** Following a member's public page: APPROVED, listed members only, not oneself. */
export class FollowService {
  constructor(
    private readonly follows: FollowRepository,
    private readonly members: () => ProfileMembers,
  ) {}

  async state(followerId: string, key: string): Promise<FollowState> {
    const member = await this.followable(key);
    return this.stateOf(member.memberId, followerId);
  }

  async follow(followerId: string, key: string): Promise<FollowState> {
    const member = this.notSelf(await this.followable(key), followerId);
    await this.follows.follow(member.memberId, member.userId, followerId);
    return this.stateOf(member.memberId, followerId);
  }

  async unfollow(followerId: string, key: string): Promise<FollowState> {
    const member = this.notSelf(await this.followable(key), followerId);
    await this.follows.unfollow(member.memberId, followerId);
    return this.stateOf(member.memberId, followerId);
  }

  count(memberId: string): Promise<number> {
    return this.follows.count(memberId);
  }

  /** Subject access: the pages the account follows. */
  async followingOf(followerId: string): Promise<FollowedMember[]> {
    return (await this.follows.ofFollower(followerId)).map((follow) => ({
      memberId: follow.memberId,
      followedAt: follow.createdAt,
    }));
  }

  private async followable(key: string): Promise<ProfileOwner> {
    const member = await this.members().followable(key);
    if (!member) throw new NotFoundError(NOT_PUBLIC);
    return member;
  }

  private notSelf(member: ProfileOwner, followerId: string): ProfileOwner {
    if (member.userId === followerId) throw new BadRequestError("You cannot follow yourself");
    return member;
  }

  private async stateOf(memberId: string, followerId: string): Promise<FollowState> {
    const [isFollowing, followerCount] = await Promise.all([
      this.follows.isFollowing(memberId, followerId),
      this.follows.count(memberId),
    ]);
    return { isFollowing, followerCount };
  }
}
