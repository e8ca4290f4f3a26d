import { Ctx, FieldResolver, Resolver, Root } from "type-graphql";
import type { RequestContext } from "../../graphql/context";
import { User } from "../users/user.type";
import { isFileId } from "./file-links";

/**
 * `User.avatar` wherever a User is answered (its owner or an administrator): an avatar stored
 * here is kept as its file id and shown as a link signed now; an outside URL as it is.
 */
@Resolver(() => User)
export class AvatarResolver {
  @FieldResolver(() => String, {
    nullable: true,
    description: "The avatar: a freshly signed link to an uploaded AVATAR image, or an http(s) URL",
  })
  avatar(@Root() user: User, @Ctx() ctx: RequestContext): string | null {
    if (user.avatar === null || !isFileId(user.avatar)) return user.avatar;
    return ctx.services.files.links.privateUrl(user.avatar);
  }
}
