import { Ctx, FieldResolver, Resolver, Root } from "type-graphql";
import type { RequestContext } from "../../graphql/context";
import { User } from "../users/user.type";
import { MemberProfile } from "./member-profile.type";

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
