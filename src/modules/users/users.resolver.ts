import { UUIDResolver } from "graphql-scalars";
import { Arg, Args, Ctx, Mutation, Query, Resolver } from "type-graphql";
import { Authorized } from "../../graphql/access";
import { Rest } from "../../graphql/rest-route";
import type { RequestContext } from "../../graphql/context";
import { Acknowledgement, acknowledged } from "../../graphql/envelopes";
import { CurrentCaller, type Caller } from "../auth/caller";
import { Audit, NotAudited, byArg, noTarget } from "../audit/audited-operations";
import { Role } from "./role";
import { UpdateCurrentUserArgs, UserListArgs } from "./user.input";
import { UserList, UserPayload } from "./user.type";

@Resolver()
export class UsersResolver {
  @Rest("GET", "/users/current", { tag: "Users" })
  @NotAudited("the caller's own account")
  @Authorized()
  @Query(() => UserPayload, { description: "The caller's own account." })
  currentUser(@CurrentCaller() caller: Caller): UserPayload {
    return UserPayload.of(caller.user, "Your account");
  }

  @Rest("PUT", "/users/current", {
    tag: "Users",
    errors: [409],
    errorCodes: ["REAUTHENTICATION_REQUIRED"],
  })
  @NotAudited("the caller's own profile")
  @Authorized()
  @Mutation(() => UserPayload, { description: "Change the caller's name, email or avatar." })
  async updateCurrentUser(
    @CurrentCaller() caller: Caller,
    @Args() args: UpdateCurrentUserArgs,
    @Ctx() ctx: RequestContext,
  ) {
    const user = await ctx.services.users.updateCurrent(caller, args);
    return UserPayload.of(user, "Account updated");
  }

  @Rest("DELETE", "/users/current", {
    tag: "Users",
    status: 204,
    errors: [409],
    errorCodes: ["REAUTHENTICATION_REQUIRED"],
  })
  @Audit({
    action: "user.delete",
    targetType: "user",
    target: (_args, _result, caller) => caller?.id ?? null,
  })
  @Authorized()
  @Mutation(() => Acknowledgement, {
    description: "Erase the caller's account, sessions and member records.",
  })
  async deleteCurrentUser(
    @CurrentCaller() caller: Caller,
    @Ctx() ctx: RequestContext,
  ): Promise<Acknowledgement> {
    await ctx.services.users.deleteCurrent(caller);
    return acknowledged("Account deleted");
  }

  @Rest("GET", "/users", { tag: "Users" })
  @Audit({ action: "user.list", targetType: "user", target: noTarget })
  @Authorized(Role.ADMIN)
  @Query(() => UserList, { description: "Accounts, newest first. Admin only." })
  async users(@Args() args: UserListArgs, @Ctx() ctx: RequestContext): Promise<UserList> {
    return UserList.of(await ctx.services.users.list(args), "Users");
  }

  @Rest("GET", "/users/:userId", { tag: "Users" })
  @Audit({ action: "user.read", targetType: "user", target: byArg("userId") })
  @Authorized(Role.ADMIN)
  @Query(() => UserPayload, { description: "One account. Admin only." })
  async user(@Arg("userId", () => UUIDResolver) userId: string, @Ctx() ctx: RequestContext) {
    return UserPayload.of(await ctx.services.users.get(userId), "User");
  }

  @Rest("DELETE", "/users/:userId", { tag: "Users", status: 204, errors: [409] })
  @Audit({ action: "user.delete", targetType: "user", target: byArg("userId") })
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
