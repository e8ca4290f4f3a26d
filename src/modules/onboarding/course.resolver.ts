import { Arg, Args, Ctx, Int, Mutation, Query, Resolver } from "type-graphql";
import { Authorized } from "../../graphql/access";
import type { RequestContext } from "../../graphql/context";
import { Acknowledgement, acknowledged, created, ok } from "../../graphql/envelopes";
import { Rest } from "../../graphql/rest-route";
import { Audit, NotAudited } from "../audit/audited-operations";
import { Role } from "../users/role";
import {
  CreateEssayQuestionArgs,
  CreateLessonArgs,
  LessonKeyArgs,
  LessonListArgs,
  UpdateEssayQuestionArgs,
  UpdateLessonArgs,
} from "./course.input";
import { EssayQuestionList, EssayQuestionPayload, LessonList, LessonPayload } from "./course.type";

const lessonKey = (args: Record<string, unknown>) => `${String(args.course)}:${String(args.id)}`;
const questionId = (args: Record<string, unknown>) => String(args.id);

/** The lessons and essay questions catalogue: read by any signed-in caller, kept by admins. */
@Resolver()
export class CourseResolver {
  @Rest("GET", "/lessons", { tag: "Onboarding" })
  @NotAudited("the organisation's course catalogue")
  @Authorized()
  @Query(() => LessonList, { description: "Lessons of one course or both, in course order." })
  async lessons(@Args() args: LessonListArgs, @Ctx() ctx: RequestContext) {
    return ok(await ctx.services.onboarding.catalogue.lessons(args.course), "Lessons");
  }

  @Rest("POST", "/lessons", {
    tag: "Onboarding",
    status: 201,
    example: { course: "CHAPLAINCY_101", title: "Chaplaincy in Disaster Response", order: 9 },
  })
  @Audit({
    action: "lesson.create",
    targetType: "lesson",
    target: (_a, result) => {
      const data = (result as { data?: { course?: string; id?: number } }).data;
      return data ? `${data.course}:${data.id}` : null;
    },
  })
  @Authorized(Role.ADMIN)
  @Mutation(() => LessonPayload, { description: "Add a lesson to a course. Admin only." })
  async createLesson(@Args() args: CreateLessonArgs, @Ctx() ctx: RequestContext) {
    return created(await ctx.services.onboarding.catalogue.createLesson(args), "Lesson created");
  }

  @Rest("PUT", "/lessons/:course/:id", {
    tag: "Onboarding",
    example: {
      title: "The Chaplaincy",
      contentUrl: "https://www.youtube.com/watch?v=chaplaincy101",
    },
  })
  @Audit({ action: "lesson.update", targetType: "lesson", target: lessonKey })
  @Authorized(Role.ADMIN)
  @Mutation(() => LessonPayload, { description: "Change a lesson. Admin only." })
  async updateLesson(@Args() args: UpdateLessonArgs, @Ctx() ctx: RequestContext) {
    return ok(await ctx.services.onboarding.catalogue.updateLesson(args), "Lesson updated");
  }

  @Rest("DELETE", "/lessons/:course/:id", { tag: "Onboarding", status: 204 })
  @Audit({ action: "lesson.delete", targetType: "lesson", target: lessonKey })
  @Authorized(Role.ADMIN)
  @Mutation(() => Acknowledgement, { description: "Remove a lesson. Admin only." })
  async deleteLesson(@Args() args: LessonKeyArgs, @Ctx() ctx: RequestContext) {
    await ctx.services.onboarding.catalogue.deleteLesson(args.course, args.id);
    return acknowledged("Lesson deleted");
  }

  @Rest("GET", "/essay-questions", { tag: "Onboarding" })
  @NotAudited("the organisation's course catalogue")
  @Authorized()
  @Query(() => EssayQuestionList, { description: "Chaplaincy 101 essay questions, in order." })
  async essayQuestions(@Ctx() ctx: RequestContext) {
    return ok(await ctx.services.onboarding.catalogue.questions(), "Essay questions");
  }

  @Rest("POST", "/essay-questions", { tag: "Onboarding", status: 201 })
  @Audit({
    action: "essayQuestion.create",
    targetType: "essayQuestion",
    target: (_args, result) => {
      const id = (result as { data?: { id?: number } }).data?.id;
      return id === undefined ? null : String(id);
    },
  })
  @Authorized(Role.ADMIN)
  @Mutation(() => EssayQuestionPayload, { description: "Add an essay question. Admin only." })
  async createEssayQuestion(@Args() args: CreateEssayQuestionArgs, @Ctx() ctx: RequestContext) {
    const question = await ctx.services.onboarding.catalogue.createQuestion(args);
    return created(question, "Essay question created");
  }

  @Rest("PUT", "/essay-questions/:id", { tag: "Onboarding" })
  @Audit({ action: "essayQuestion.update", targetType: "essayQuestion", target: questionId })
  @Authorized(Role.ADMIN)
  @Mutation(() => EssayQuestionPayload, { description: "Change an essay question. Admin only." })
  async updateEssayQuestion(@Args() args: UpdateEssayQuestionArgs, @Ctx() ctx: RequestContext) {
    const question = await ctx.services.onboarding.catalogue.updateQuestion(args);
    return ok(question, "Essay question updated");
  }

  @Rest("DELETE", "/essay-questions/:id", { tag: "Onboarding", status: 204 })
  @Audit({ action: "essayQuestion.delete", targetType: "essayQuestion", target: questionId })
  @Authorized(Role.ADMIN)
  @Mutation(() => Acknowledgement, { description: "Remove an essay question. Admin only." })
  async deleteEssayQuestion(@Arg("id", () => Int) id: number, @Ctx() ctx: RequestContext) {
    await ctx.services.onboarding.catalogue.deleteQuestion(id);
    return acknowledged("Essay question deleted");
  }
}
