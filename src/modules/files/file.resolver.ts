import { Args, Ctx, Query, Resolver } from "type-graphql";
import { Authorized } from "../../graphql/access";
import type { RequestContext } from "../../graphql/context";
import { paged } from "../../graphql/envelopes";
import { PageWindowArgs } from "../../graphql/paging";
import { Rest } from "../../graphql/rest-route";
import { NotAudited } from "../audit/audited-operations";
import { CurrentCaller, type Caller } from "../auth/caller";
import { StoredFile, StoredFilePage } from "./file.type";

/** The records of stored files; the bytes travel over POST /files and GET /files/{id}. */
@Resolver()
export class FileResolver {
  @Rest("GET", "/files", { tag: "Files" })
  @NotAudited("the caller's own files")
  @Authorized()
  @Query(() => StoredFilePage, {
    description: "The caller's own stored files, newest first, each with a freshly signed fileUrl.",
  })
  async files(
    @Args() args: PageWindowArgs,
    @CurrentCaller() caller: Caller,
    @Ctx() ctx: RequestContext,
  ) {
    const page = await ctx.services.files.listOwn(caller, args);
    return paged({ ...page, items: page.items.map((view) => StoredFile.from(view)) }, "Your files");
  }
}
