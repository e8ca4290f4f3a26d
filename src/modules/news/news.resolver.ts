import { UUIDResolver } from "graphql-scalars";
import { Arg, Args, Ctx, Mutation, Query, Resolver } from "type-graphql";
import { Authorized } from "../../graphql/access";
import type { RequestContext } from "../../graphql/context";
import { Acknowledgement, acknowledged, created, ok, paged } from "../../graphql/envelopes";
import { PageArgs } from "../../graphql/paging";
import { Rest } from "../../graphql/rest-route";
import { Audit, NotAudited, byArg, createdId } from "../audit/audited-operations";
import { CurrentCaller, type Caller } from "../auth/caller";
import { Role } from "../users/role";
import { CreateNewsArgs, UpdateNewsArgs } from "./news.input";
import { NewsPostPage, NewsPostPayload } from "./news.type";

const EXAMPLE = {
  title: "Chaplains serve at the Cebu flood relief",
  caption: "<p>Our chaplains <strong>served</strong> 300 families.</p>",
  status: "PUBLISHED",
  platform: "WEBSITE",
  hashtags: ["#relief"],
};

@Resolver()
export class NewsResolver {
  @Rest("GET", "/news-blogs/public", {
    tag: "News",
    publicCache: { sources: ["news_posts", "members", "files"] },
  })
  @NotAudited("the organisation's published news")
  @Query(() => NewsPostPage, {
    description: "Published posts that are out, newest publishedAt first. No token needed.",
  })
  async publicNews(@Args() args: PageArgs, @Ctx() ctx: RequestContext) {
    return paged(await ctx.services.news.listPublic(args), "News");
  }

  @Rest("GET", "/news-blogs/public/:id", {
    tag: "News",
    publicCache: { sources: ["news_posts", "members", "files"] },
  })
  @NotAudited("the organisation's published news")
  @Query(() => NewsPostPayload, {
    description: "One published post that is out; others answer 404. No token needed.",
  })
  async publicNewsPost(@Arg("id", () => UUIDResolver) id: string, @Ctx() ctx: RequestContext) {
    return ok(await ctx.services.news.getPublic(id), "News post");
  }

  @Rest("GET", "/news-blogs", { tag: "News" })
  @NotAudited("the organisation's news, drafts included")
  @Authorized(Role.ADMIN)
  @Query(() => NewsPostPage, { description: "Every post, drafts too, newest first. Admin only." })
  async newsPosts(@Args() args: PageArgs, @Ctx() ctx: RequestContext) {
    return paged(await ctx.services.news.list(args), "News");
  }

  @Rest("POST", "/news-blogs/create", { tag: "News", status: 201, example: EXAMPLE })
  @Audit({ action: "news.create", targetType: "newsPost", target: createdId })
  @Authorized(Role.ADMIN)
  @Mutation(() => NewsPostPayload, {
    description: "Write a post (a DRAFT unless PUBLISHED). Admin only.",
  })
  async createNewsPost(
    @Args() args: CreateNewsArgs,
    @CurrentCaller() caller: Caller,
    @Ctx() ctx: RequestContext,
  ) {
    return created(await ctx.services.news.create(caller.id, args), "News post created");
  }

  @Rest("PUT", "/news-blogs/:id", {
    tag: "News",
    summary: "Update a news post",
    example: { status: "PUBLISHED", publishedAt: "2027-01-15T00:00:00.000Z" },
  })
  @Audit({ action: "news.update", targetType: "newsPost", target: byArg("id") })
  @Authorized(Role.ADMIN)
  @Mutation(() => NewsPostPayload, {
    description: "Partial update: edit, schedule, publish or unpublish. Admin only.",
  })
  async updateNewsPost(
    @Args() args: UpdateNewsArgs,
    @CurrentCaller() caller: Caller,
    @Ctx() ctx: RequestContext,
  ) {
    return ok(await ctx.services.news.update(caller.id, args), "News post updated");
  }

  @Rest("DELETE", "/news-blogs/:id", { tag: "News", status: 204 })
  @Audit({ action: "news.delete", targetType: "newsPost", target: byArg("id") })
  @Authorized(Role.ADMIN)
  @Mutation(() => Acknowledgement, { description: "Delete a post. Admin only." })
  async deleteNewsPost(@Arg("id", () => UUIDResolver) id: string, @Ctx() ctx: RequestContext) {
    await ctx.services.news.delete(id);
    return acknowledged("News post deleted");
  }
}
