import { Ctx, FieldResolver, Resolver, Root } from "type-graphql";
import type { RequestContext } from "../../graphql/context";
import { Member } from "../members/member.type";
import { User } from "../users/user.type";
import { isFileId } from "./file-links";
import { auditedReader } from "./file.service";

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
    return linkOf(user.avatar, ctx);
  }
}

/** A member's images stored here are kept as file ids, shown as links signed now. */
@Resolver(() => Member)
export class MemberPhotoResolver {
  @FieldResolver(() => String, {
    nullable: true,
    description: "The 2x2 photo: a freshly signed link to an uploaded image, or an http(s) URL",
  })
  recentIdPhotoUrl(@Root() member: Member, @Ctx() ctx: RequestContext): string | null {
    return linkOf(member.recentIdPhotoUrl, ctx);
  }

  /** `Member.profileBannerUrl`: the banner's file id, shown as a link signed now. */
  @FieldResolver(() => String, {
    nullable: true,
    description: "The public page's banner image: a freshly signed link to it; null when none",
  })
  profileBannerUrl(@Root() member: Member, @Ctx() ctx: RequestContext): string | null {
    return linkOf(member.profileBannerUrl, ctx);
  }
}

function linkOf(value: string | null, ctx: RequestContext): string | null {
  if (value === null || !isFileId(value)) return value;
  // The owner is not known here: a link rendered for an administrator names them, and the
  // download leaves their read of their own file unaudited.
  return ctx.services.files.links.privateUrl(value, auditedReader(ctx.caller));
}
