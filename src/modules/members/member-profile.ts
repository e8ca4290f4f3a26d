import { DateTimeScalar } from "../../graphql/date-time";
import { Ctx, Field, FieldResolver, ID, ObjectType, Resolver, Root } from "type-graphql";
import type { RequestContext } from "../../graphql/context";
import { User } from "../users/user.type";
import { MemberStatus } from "./member.enums";

/** The account's latest application, as the web client reads it to pick form or status page. */
@ObjectType("MemberProfile", {
  simpleResolvers: true,
  description: "The account's latest membership application",
})
export class MemberProfile {
  @Field(() => ID) id!: string;
  @Field(() => MemberStatus) status!: MemberStatus;
  @Field({ description: "False while the record is archived" }) isActive!: boolean;
  @Field(() => DateTimeScalar) createdAt!: Date;
}

/**
 * `User.memberProfile` wherever a User is answered (its owner or an administrator: a User is
 * never shown to anyone else). The users of one answer are looked up together (MemberReads).
 */
@Resolver(() => User)
export class MemberProfileResolver {
  @FieldResolver(() => MemberProfile, {
    nullable: true,
    description: "The latest membership application of the account; null when it has none",
  })
  memberProfile(@Root() user: User, @Ctx() ctx: RequestContext): Promise<MemberProfile | null> {
    return ctx.services.members.reads.profileOf(user.id);
  }
}
