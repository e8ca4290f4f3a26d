import { Args, Ctx, Mutation, Query, Resolver } from "type-graphql";
import { Authorized } from "../../graphql/access";
import type { RequestContext } from "../../graphql/context";
import { created, ok, paged } from "../../graphql/envelopes";
import { Rest } from "../../graphql/rest-route";
import { Audit, NotAudited, createdId, noTarget } from "../audit/audited-operations";
import { Role } from "../users/role";
import {
  CreateInterviewerArgs,
  InterviewerListArgs,
  InterviewerRefArgs,
  UpdateInterviewerArgs,
} from "./interviewer.input";
import {
  InterviewerDetailsPage,
  InterviewerDetailsPayload,
  InterviewerListPayload,
} from "./interviewer.type";

/** The interviewers: members read who is free; administrators keep the records. */
@Resolver()
export class InterviewerResolver {
  @Rest("GET", "/interviewers", { tag: "Interviews" })
  @NotAudited("the organisation's interviewers and their free slots, without contact data")
  @Authorized()
  @Query(() => InterviewerListPayload, {
    description: "Active interviewers with their next free slots (Asia/Manila).",
  })
  async interviewers(@Ctx() ctx: RequestContext) {
    return ok(await ctx.services.interviewers.offers(), "Interviewers");
  }

  @Rest("GET", "/interviewers/all", { tag: "Interviews" })
  @Audit({ action: "interviewer.list", targetType: "interviewer", target: noTarget })
  @Authorized(Role.ADMIN)
  @Query(() => InterviewerDetailsPage, {
    description: "Every interviewer record, inactive ones included, oldest first. Admin only.",
  })
  async interviewerRecords(@Args() args: InterviewerListArgs, @Ctx() ctx: RequestContext) {
    return paged(await ctx.services.interviewers.list(args), "Interviewers");
  }

  @Rest("POST", "/interviewers/create", {
    tag: "Interviews",
    status: 201,
    errors: [409],
    example: {
      key: "ptr-ana",
      name: "Ptr. Ana Reyes",
      title: "Formation Interviewer",
      email: "ana.reyes@example.org",
      days: ["SATURDAY"],
      timeSlots: ["09:00 AM", "10:00 AM"],
    },
  })
  @Audit({ action: "interviewer.create", targetType: "interviewer", target: createdId })
  @Authorized(Role.ADMIN)
  @Mutation(() => InterviewerDetailsPayload, {
    description:
      "Add an interviewer (active, on Saturday and Sunday at every slot unless told otherwise). Admin only.",
  })
  async createInterviewer(@Args() args: CreateInterviewerArgs, @Ctx() ctx: RequestContext) {
    return created(await ctx.services.interviewers.create(args), "Interviewer created");
  }

  @Rest("PUT", "/interviewers/:id", {
    tag: "Interviews",
    errors: [404, 409],
    example: { email: "rodel.manzo@example.org", days: ["SATURDAY"], timeSlots: ["09:00 AM"] },
  })
  @Audit({ action: "interviewer.update", targetType: "interviewer", target: createdId })
  @Authorized(Role.ADMIN)
  @Mutation(() => InterviewerDetailsPayload, {
    description: "Change an interviewer (by id or key); fields left out stay. Admin only.",
  })
  async updateInterviewer(@Args() args: UpdateInterviewerArgs, @Ctx() ctx: RequestContext) {
    return ok(await ctx.services.interviewers.update(args), "Interviewer saved");
  }

  @Rest("PATCH", "/interviewers/:id/deactivate", { tag: "Interviews", errors: [404] })
  @Audit({ action: "interviewer.deactivate", targetType: "interviewer", target: createdId })
  @Authorized(Role.ADMIN)
  @Mutation(() => InterviewerDetailsPayload, {
    description: "Stop offering an interviewer to members; bookings already made stay. Admin only.",
  })
  async deactivateInterviewer(@Args() args: InterviewerRefArgs, @Ctx() ctx: RequestContext) {
    return ok(await ctx.services.interviewers.deactivate(args.id), "Interviewer deactivated");
  }

  @Rest("DELETE", "/interviewers/:id", { tag: "Interviews", status: 204, errors: [404, 409] })
  @Audit({ action: "interviewer.delete", targetType: "interviewer", target: createdId })
  @Authorized(Role.ADMIN)
  @Mutation(() => InterviewerDetailsPayload, {
    description:
      "Erase an interviewer record (name and address with it) that holds no interview still to come; past bookings keep its id. Admin only.",
  })
  async deleteInterviewer(@Args() args: InterviewerRefArgs, @Ctx() ctx: RequestContext) {
    return ok(await ctx.services.interviewers.delete(args.id), "Interviewer deleted");
  }
}
