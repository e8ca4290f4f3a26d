import { Field, ID, Int, ObjectType } from "type-graphql";
import { DateTimeScalar } from "../../graphql/date-time";
import { PayloadType } from "../../graphql/envelopes";

@ObjectType("FollowState", { simpleResolvers: true })
export class FollowState {
  @Field({ description: "Whether the caller follows this member" }) isFollowing!: boolean;
  @Field(() => Int) followerCount!: number;
}

export const FollowStatePayload = PayloadType(FollowState, "FollowStatePayload");

@ObjectType("FollowedMember", {
  simpleResolvers: true,
  description: "A member page the account follows",
})
export class FollowedMember {
  @Field(() => ID, { description: "The member record followed" }) memberId!: string;
  @Field(() => DateTimeScalar) followedAt!: Date;
}
