import { UUIDResolver } from "graphql-scalars";
import { Arg, Args, Authorized, Ctx, Mutation, Query, Resolver } from "type-graphql";
import type { RequestContext } from "../../graphql/context";
import { Acknowledgement, acknowledged } from "../../graphql/envelopes";
import { Role } from "./role";
import { UpdateCurrentUserArgs, UserListArgs } from "./user.input";
import { UserList, UserPayload } from "./user.type";

@Resolver()
export class UsersResolver {
  @Authorized()
  @Query(() => UserPayload, { description: "The caller's own account." })
  currentUser(@Ctx() ctx: RequestContext): UserPayload {
    return UserPayload.of(ctx.caller!.user, "Your account");
  }

  @Authorized()
  @Mutation(() => UserPayload, { description: "Change the caller's name, email or avatar." })
  async updateCurrentUser(@Args() args: UpdateCurrentUserArgs, @Ctx() ctx: RequestContext) {
    const user = await ctx.services.users.updateCurrent(ctx.caller!, args);
    return UserPayload.of(user, "Account updated");
  }

  @Authorized()
  @Mutation(() => Acknowledgement, {
    description: "Erase the caller's account, sessions and member records.",
  })
  async deleteCurrentUser(@Ctx() ctx: RequestContext): Promise<Acknowledgement> {
    await ctx.services.users.deleteCurrent(ctx.caller!);
    return acknowledged("Account deleted");
  }

  @Authorized(Role.ADMIN)
  @Query(() => UserList, { description: "Accounts, newest first. Admin only." })
  async users(@Args() args: UserListArgs, @Ctx() ctx: RequestContext): Promise<UserList> {
    return { code: "OK", message: "Users", ...(await ctx.services.users.list(args)) };
  }

  @Authorized(Role.ADMIN)
  @Query(() => UserPayload, { description: "One account. Admin only." })
  async user(@Arg("userId", () => UUIDResolver) userId: string, @Ctx() ctx: RequestContext) {
    return UserPayload.of(await ctx.services.users.get(userId), "User");
  }

  @Authorized(Role.ADMIN)
  @Mutation(() => Acknowledgement, { description: "Erase an account and its data. Admin only." })
  async deleteUser(
    @Arg("userId", () => UUIDResolver) userId: string,
    @Ctx() ctx: RequestContext,
  ): Promise<Acknowledgement> {
    await ctx.services.users.delete(userId);
    return acknowledged("User deleted");
  }
}
