import { Args, Ctx, Mutation, Query, Resolver } from "type-graphql";
import { Authorized } from "../../graphql/access";
import type { RequestContext } from "../../graphql/context";
import { ok } from "../../graphql/envelopes";
import { Rest } from "../../graphql/rest-route";
import { Audit, NotAudited, byArg, noTarget } from "../audit/audited-operations";
import { CurrentCaller, type Caller } from "../auth/caller";
import { Role } from "../users/role";
import {
  BookInterviewArgs,
  RecordOutcomeArgs,
  ScheduleArgs,
  SetInterviewerArgs,
} from "./interview.input";
import {
  InterviewPage,
  InterviewerListPayload,
  InterviewerPayload,
  OnlineInterviewPayload,
} from "./interview.type";

@Resolver()
export class InterviewResolver {
  @Rest("PUT", "/interviewers/:userId", {
    tag: "Interviews",
    errors: [404, 409],
    example: { active: true, days: ["SATURDAY"], timeSlots: ["09:00 AM", "10:00 AM"] },
  })
  @Audit({ action: "interviewer.set", targetType: "user", target: byArg("userId") })
  @Authorized(Role.ADMIN)
  @Mutation(() => InterviewerPayload, {
    description:
      "Mark an officer or administrator as an interviewer, with days and slots. Admin only.",
  })
  async setInterviewer(@Args() args: SetInterviewerArgs, @Ctx() ctx: RequestContext) {
    return ok(await ctx.services.interviews.setInterviewer(args), "Interviewer saved");
  }

  @Rest("GET", "/interviewers", { tag: "Interviews" })
  @NotAudited("the organisation's interviewers and their free slots")
  @Authorized()
  @Query(() => InterviewerListPayload, {
    description: "Active interviewers with their next free slots (Asia/Manila).",
  })
  async interviewers(@Ctx() ctx: RequestContext) {
    return ok(await ctx.services.interviews.interviewers(), "Interviewers");
  }

  @Rest("GET", "/members/current/online-interview", { tag: "Interviews" })
  @NotAudited("the caller's own interview")
  @Authorized()
  @Query(() => OnlineInterviewPayload, {
    description: "The caller's booked interview; data is null until booked.",
  })
  async currentOnlineInterview(@CurrentCaller() caller: Caller, @Ctx() ctx: RequestContext) {
    return ok(await ctx.services.interviews.currentOf(caller.id), "Online interview");
  }

  @Rest("PUT", "/members/current/online-interview", {
    tag: "Interviews",
    errors: [404, 409],
    example: {
      interviewerId: "0192f0c2-7d1e-7c3a-9b1a-3f1e2d4c5b6a",
      day: "SATURDAY",
      timeSlot: "09:00 AM",
    },
  })
  @NotAudited("the caller books their own interview; both sides are mailed")
  @Authorized()
  @Mutation(() => OnlineInterviewPayload, {
    description:
      "Book the next such day (Asia/Manila) at least 24 hours ahead; replaces an earlier booking.",
  })
  async bookOnlineInterview(
    @Args() args: BookInterviewArgs,
    @CurrentCaller() caller: Caller,
    @Ctx() ctx: RequestContext,
  ) {
    return ok(await ctx.services.interviews.book(caller, args), "Online interview booked");
  }

  @Rest("PATCH", "/members/:id/interview", { tag: "Interviews", errors: [404] })
  @Audit({ action: "interview.outcome", targetType: "member", target: byArg("id") })
  @Authorized(Role.OFFICER, Role.ADMIN)
  @Mutation(() => OnlineInterviewPayload, {
    description: "Record an interview's outcome. The member's interviewer or an administrator.",
  })
  async recordInterviewOutcome(
    @Args() args: RecordOutcomeArgs,
    @CurrentCaller() caller: Caller,
    @Ctx() ctx: RequestContext,
  ) {
    return ok(
      await ctx.services.interviews.recordOutcome(caller, args),
      "Interview outcome recorded",
    );
  }

  @Rest("GET", "/interviews", { tag: "Interviews" })
  @Audit({ action: "interview.list", targetType: "interview", target: noTarget })
  @Authorized(Role.OFFICER, Role.ADMIN)
  @Query(() => InterviewPage, {
    description: "Booked interviews by date; an officer sees their own.",
  })
  async interviews(
    @Args() args: ScheduleArgs,
    @CurrentCaller() caller: Caller,
    @Ctx() ctx: RequestContext,
  ) {
    const page = await ctx.services.interviews.schedule(caller, args);
    return { code: "OK", message: "Interviews", ...page };
  }
}
