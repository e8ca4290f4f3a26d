import { Args, Ctx, Mutation, Query, Resolver } from "type-graphql";
import { Authorized } from "../../graphql/access";
import type { RequestContext } from "../../graphql/context";
import { ok, paged } from "../../graphql/envelopes";
import { Rest } from "../../graphql/rest-route";
import { Audit, NotAudited, byArg, noTarget } from "../audit/audited-operations";
import { CurrentCaller, type Caller } from "../auth/caller";
import { Role } from "../users/role";
import {
  BookInterviewArgs,
  RecordOutcomeArgs,
  ScheduleArgs,
  SetMeetingArgs,
} from "./interview.input";
import { InterviewPage, OnlineInterviewPayload } from "./interview.type";

@Resolver()
export class InterviewResolver {
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
    example: { interviewerId: "ptr-rodel", day: "Saturday", timeSlot: "09:00 AM" },
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

  @Rest("PATCH", "/members/:id/interview", { tag: "Interviews", errors: [404, 409] })
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

  @Rest("PATCH", "/members/:id/interview/meeting", {
    tag: "Interviews",
    errors: [404, 409],
    example: {
      zoomLink: "https://zoom.us/j/123456789",
      meetingId: "123 456 789",
      passcode: "faith",
    },
  })
  @Audit({ action: "interview.meeting", targetType: "member", target: byArg("id") })
  @Authorized(Role.OFFICER, Role.ADMIN)
  @Mutation(() => OnlineInterviewPayload, {
    description:
      "Set the meeting of a pending interview; both sides are mailed the link with the invitation updated. The member's interviewer or an administrator.",
  })
  async setInterviewMeeting(
    @Args() args: SetMeetingArgs,
    @CurrentCaller() caller: Caller,
    @Ctx() ctx: RequestContext,
  ) {
    return ok(await ctx.services.interviews.setMeeting(caller, args), "Interview meeting set");
  }

  @Rest("GET", "/interviews", { tag: "Interviews", errors: [404] })
  @Audit({ action: "interview.list", targetType: "interview", target: noTarget })
  @Authorized(Role.OFFICER, Role.ADMIN)
  @Query(() => InterviewPage, {
    description:
      "Booked interviews by date; an officer sees those of the interviewer linked to them.",
  })
  async interviews(
    @Args() args: ScheduleArgs,
    @CurrentCaller() caller: Caller,
    @Ctx() ctx: RequestContext,
  ) {
    const page = await ctx.services.interviews.schedule(caller, args);
    return paged(page, "Interviews");
  }
}
