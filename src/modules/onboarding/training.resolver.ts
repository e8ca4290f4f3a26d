import { Args, Ctx, Mutation, Query, Resolver } from "type-graphql";
import { Authorized } from "../../graphql/access";
import type { RequestContext } from "../../graphql/context";
import { ok } from "../../graphql/envelopes";
import { Rest } from "../../graphql/rest-route";
import { NotAudited } from "../audit/audited-operations";
import { CurrentCaller, type Caller } from "../auth/caller";
import { SaveChaplaincyTrainingArgs, SavePreOrientationArgs } from "./course.input";
import { CourseProgressPayload } from "./course.type";
import { OnboardingProgressPayload } from "./progress.type";

/** The member's own side of the two courses. */
@Resolver()
export class TrainingResolver {
  @Rest("PUT", "/members/current/onboarding-progress/pre-orientation", {
    tag: "Onboarding",
    errors: [409],
    example: { completedLessonIds: [1, 2, 3], isCompleted: false },
  })
  @NotAudited("the caller's own course progress")
  @Authorized()
  @Mutation(() => OnboardingProgressPayload, {
    description: "Mark pre-orientation lessons completed (kept as a union). Answers the progress.",
  })
  async savePreOrientation(
    @CurrentCaller() caller: Caller,
    @Args() args: SavePreOrientationArgs,
    @Ctx() ctx: RequestContext,
  ) {
    await ctx.services.onboarding.training.savePreOrientation(caller, args);
    const progress = await ctx.services.onboarding.progress.currentProgress(caller);
    return ok(progress, "Pre-orientation saved");
  }

  @Rest("GET", "/members/current/chaplaincy-training", { tag: "Onboarding" })
  @NotAudited("the caller's own course progress")
  @Authorized()
  @Query(() => CourseProgressPayload, {
    description: "Chaplaincy 101: lessons and essays; null until saved.",
  })
  async chaplaincyTraining(@CurrentCaller() caller: Caller, @Ctx() ctx: RequestContext) {
    return ok(await ctx.services.onboarding.training.chaplaincy(caller), "Chaplaincy 101");
  }

  @Rest("PUT", "/members/current/chaplaincy-training", {
    tag: "Onboarding",
    errors: [409],
    example: {
      completedLessonIds: [1, 2],
      essayAnswers: {
        "1": "Chaplaincy meets people where they are: in hospitals, camps and prisons, whatever their faith.",
      },
    },
  })
  @NotAudited("the caller's own course progress")
  @Authorized()
  @Mutation(() => CourseProgressPayload, {
    description: "Mark lessons completed and save essay answers (up to 5 000 characters each).",
  })
  async saveChaplaincyTraining(
    @CurrentCaller() caller: Caller,
    @Args() args: SaveChaplaincyTrainingArgs,
    @Ctx() ctx: RequestContext,
  ) {
    const saved = await ctx.services.onboarding.training.saveChaplaincy(caller, args);
    return ok(saved, "Chaplaincy 101 saved");
  }
}
