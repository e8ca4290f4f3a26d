import { UUIDResolver } from "graphql-scalars";
import { Arg, Args, Ctx, Mutation, Query, Resolver } from "type-graphql";
import { Authorized } from "../../graphql/access";
import type { RequestContext } from "../../graphql/context";
import { Acknowledgement, acknowledged, created, ok } from "../../graphql/envelopes";
import { EXAMPLE_FILE_ID, Rest } from "../../graphql/rest-route";
import { Audit, NotAudited, byArg, createdId } from "../audit/audited-operations";
import { CurrentCaller, type Caller } from "../auth/caller";
import { CreatePublicRecordArgs, UpdatePublicRecordArgs } from "./public-record.input";
import { MemberPublicRecordList, MemberPublicRecordPayload } from "./public-record.type";

const TAG = "Public profiles";
const EXAMPLE = {
  title: "Hospital visitation, Davao",
  shortDescription: "<p>Prayed with <strong>40 patients</strong>.</p>",
  type: "COMMUNITY_SERVICE",
  eventAt: "2025-03-01T00:00:00.000Z",
  location: "Davao City",
  status: "PUBLISHED",
  attachments: [{ fileUrl: EXAMPLE_FILE_ID }],
};

/** The public records a member reports on the public page (owner edits). */
@Resolver()
export class PublicRecordResolver {
  @Rest("GET", "/members/current/public-records", { tag: TAG })
  @NotAudited("the caller's own public records")
  @Authorized()
  @Query(() => MemberPublicRecordList, {
    description:
      "The caller's public records (current record), drafts included, newest event first.",
  })
  async currentPublicRecords(@CurrentCaller() caller: Caller, @Ctx() ctx: RequestContext) {
    return ok(await ctx.services.publicRecords.listOwn(caller.id), "Your public records");
  }

  @Rest("POST", "/members/current/public-records", {
    tag: TAG,
    status: 201,
    errors: [404, 409],
    example: EXAMPLE,
  })
  @Audit({ action: "member.publicRecord.create", targetType: "publicRecord", target: createdId })
  @Authorized()
  @Mutation(() => MemberPublicRecordPayload, {
    description:
      "Report an activity, service or recognition on the caller's public page, with up to 6 PUBLIC_RECORD pictures. APPROVED records only.",
  })
  async createPublicRecord(
    @CurrentCaller() caller: Caller,
    @Args() args: CreatePublicRecordArgs,
    @Ctx() ctx: RequestContext,
  ) {
    const record = await ctx.services.publicRecords.create(caller.id, args);
    return created(record, "Public record added");
  }

  @Rest("PUT", "/members/current/public-records/:id", {
    tag: TAG,
    errors: [404, 409],
    example: { status: "PUBLISHED", attachments: [{ fileUrl: EXAMPLE_FILE_ID }] },
  })
  @Audit({ action: "member.publicRecord.update", targetType: "publicRecord", target: byArg("id") })
  @Authorized()
  @Mutation(() => MemberPublicRecordPayload, {
    description:
      "Change one of the caller's public records; attachments, when given, replace its pictures. Another member's id is a 404.",
  })
  async updatePublicRecord(
    @CurrentCaller() caller: Caller,
    @Args() args: UpdatePublicRecordArgs,
    @Ctx() ctx: RequestContext,
  ) {
    const record = await ctx.services.publicRecords.update(caller.id, args);
    return ok(record, "Public record updated");
  }

  @Rest("DELETE", "/members/current/public-records/:id", {
    tag: TAG,
    status: 204,
    errors: [404, 409],
  })
  @Audit({ action: "member.publicRecord.delete", targetType: "publicRecord", target: byArg("id") })
  @Authorized()
  @Mutation(() => Acknowledgement, {
    description: "Remove one of the caller's public records; another member's id is a 404.",
  })
  async deletePublicRecord(
    @CurrentCaller() caller: Caller,
    @Arg("id", () => UUIDResolver) id: string,
    @Ctx() ctx: RequestContext,
  ) {
    await ctx.services.publicRecords.delete(caller.id, id);
    return acknowledged("Public record removed");
  }
}
