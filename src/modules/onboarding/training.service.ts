import { ConflictError, ValidationError } from "../../errors/app-errors";
import type { Caller } from "../auth/caller";
import type { CourseCatalogueService } from "./course-catalogue.service";
import { Course } from "./course.model";
import type { SaveChaplaincyTrainingArgs, SavePreOrientationArgs } from "./course.input";
import type { CourseProgress } from "./course.type";
import type { OnboardingRecords } from "./onboarding-members";
import type { ProgressRecord } from "./progress.model";
import type { ProgressRepository } from "./progress.repository";

export const ESSAY_MAX = 5000;

/** What is left of the two courses, for the step rules. */
export interface CoursesLeft {
  preOrientation: { completed: boolean; remainingTitles: string[] };
  chaplaincy: { completed: boolean; remainingTitles: string[]; unanswered: number };
}

/** The member's side of the courses: lessons completed, essays answered. */
export class TrainingService {
  constructor(
    private readonly progress: ProgressRepository,
    private readonly catalogue: CourseCatalogueService,
    private readonly records: OnboardingRecords,
  ) {}

  async savePreOrientation(caller: Caller, args: SavePreOrientationArgs): Promise<void> {
    const record = await this.records.currentOnboarding(caller.id);
    const lessons = await this.knownLessons(Course.PRE_ORIENTATION, args.completedLessonIds);
    const progress = { lessonIds: args.completedLessonIds };
    if (args.isCompleted === true) {
      const required = { lessonIds: ids(remaining(lessons, progress.lessonIds)), answered: [] };
      const saved = await this.progress.save(record, "preOrientation", progress, required);
      if (!saved) {
        const before = await this.progress.findOf(record.memberId);
        const left = remaining(lessons, [
          ...(before?.preOrientation?.completedLessonIds ?? []),
          ...progress.lessonIds,
        ]);
        throw new ConflictError(`Complete every pre-orientation lesson first: ${left.length} left`);
      }
      await this.progress.markCompleted(record.memberId, "preOrientation", new Date());
      return;
    }
    const saved = await this.progress.save(record, "preOrientation", progress);
    const left = remaining(lessons, saved?.preOrientation?.completedLessonIds ?? []);
    if (left.length === 0) {
      await this.progress.markCompleted(record.memberId, "preOrientation", new Date());
    }
  }

  /** GET /members/current/chaplaincy-training: null until something was saved for it. */
  async chaplaincy(caller: Caller): Promise<CourseProgress | null> {
    const record = await this.records.current(caller.id);
    if (!record) return null;
    const saved = await this.progress.findOf(record.memberId);
    return saved && hasChaplaincy(saved) ? chaplaincyView(saved) : null;
  }

  async saveChaplaincy(caller: Caller, args: SaveChaplaincyTrainingArgs): Promise<CourseProgress> {
    const record = await this.records.currentOnboarding(caller.id);
    const lessons = await this.knownLessons(Course.CHAPLAINCY_101, args.completedLessonIds);
    const answers = await this.checkedAnswers(args.essayAnswers ?? {});
    const progress = { lessonIds: args.completedLessonIds, answers };
    if (args.isCompleted === true) {
      const questions = await this.catalogue.questions();
      const required = {
        lessonIds: ids(remaining(lessons, progress.lessonIds)),
        answered: questions.map((question) => question.id).filter((id) => !answers.get(id)?.trim()),
      };
      if (!(await this.progress.save(record, "chaplaincy", progress, required))) {
        throw new ConflictError(await this.chaplaincyMissing(record.memberId, lessons, progress));
      }
      await this.progress.markCompleted(record.memberId, "chaplaincy", new Date());
    } else {
      const saved = await this.progress.save(record, "chaplaincy", progress);
      if ((await this.chaplaincyLeft(saved, lessons)).completed) {
        await this.progress.markCompleted(record.memberId, "chaplaincy", new Date());
      }
    }
    return chaplaincyView((await this.progress.findOf(record.memberId))!);
  }

  /** What a refused completion still lacks: the stored record with this save laid over it. */
  private async chaplaincyMissing(
    memberId: string,
    lessons: { lessonId: number; title: string }[],
    progress: { lessonIds: number[]; answers: Map<number, string> },
  ): Promise<string> {
    const before = await this.progress.findOf(memberId);
    const answers = { ...(before?.chaplaincy?.essayAnswers ?? {}) };
    for (const [id, text] of progress.answers) answers[`q${id}`] = text;
    const left = await this.chaplaincyLeft(
      {
        chaplaincy: {
          completedLessonIds: [
            ...(before?.chaplaincy?.completedLessonIds ?? []),
            ...progress.lessonIds,
          ],
          essayAnswers: answers,
          completedAt: null,
        },
      },
      lessons,
    );
    return [
      left.remainingTitles.length > 0 ? `${left.remainingTitles.length} lessons left` : null,
      left.unanswered > 0 ? `${left.unanswered} essay questions unanswered` : null,
    ]
      .filter(Boolean)
      .join(", ")
      .replace(/^/, "Finish Chaplaincy 101 first: ");
  }

  /** The member's Chaplaincy 101 as administrators read it (empty when nothing was saved). */
  async chaplaincyOf(memberId: string): Promise<CourseProgress> {
    const saved = await this.progress.findOf(memberId);
    return saved
      ? chaplaincyView(saved)
      : { completedLessonIds: [], essayAnswers: {}, completedAt: null };
  }

  /** The day the member took the oath (as the administrator recorded it), or null. */
  async oathDay(memberId: string): Promise<Date | null> {
    return (await this.progress.findOf(memberId))?.oath?.takenAt ?? null;
  }

  /** What is left of both courses for the member. */
  async left(memberId: string): Promise<CoursesLeft & { record: ProgressRecord | null }> {
    const [record, pre, chaplaincyLessons] = await Promise.all([
      this.progress.findOf(memberId),
      this.catalogue.lessonRecords(Course.PRE_ORIENTATION),
      this.catalogue.lessonRecords(Course.CHAPLAINCY_101),
    ]);
    const preLeft = remaining(pre, record?.preOrientation?.completedLessonIds ?? []);
    return {
      record,
      preOrientation: {
        completed:
          Boolean(record?.preOrientation?.completedAt) || (pre.length > 0 && preLeft.length === 0),
        remainingTitles: preLeft.map((lesson) => lesson.title),
      },
      chaplaincy: await this.chaplaincyLeft(record, chaplaincyLessons),
    };
  }

  private async chaplaincyLeft(
    record: Pick<ProgressRecord, "chaplaincy"> | null,
    lessons: { lessonId: number; title: string }[],
  ): Promise<CoursesLeft["chaplaincy"]> {
    const questions = await this.catalogue.questions();
    const answers = record?.chaplaincy?.essayAnswers ?? {};
    const unanswered = questions.filter((question) => !answers[`q${question.id}`]?.trim()).length;
    const left = remaining(lessons, record?.chaplaincy?.completedLessonIds ?? []);
    return {
      completed:
        Boolean(record?.chaplaincy?.completedAt) || (left.length === 0 && unanswered === 0),
      remainingTitles: left.map((lesson) => lesson.title),
      unanswered,
    };
  }

  /** The course's lessons; 400 naming the first id that is not one of them. */
  private async knownLessons(course: Course, ids: number[]) {
    const lessons = await this.catalogue.lessonRecords(course);
    const known = new Set(lessons.map((lesson) => lesson.lessonId));
    const unknown = ids.findIndex((id) => !known.has(id));
    if (unknown >= 0) {
      throw ValidationError.field(
        `completedLessonIds.${unknown}`,
        `${ids[unknown]} is not a lesson of ${course}`,
      );
    }
    return lessons;
  }

  private async checkedAnswers(input: Record<string, unknown>): Promise<Map<number, string>> {
    const questions = new Set((await this.catalogue.questions()).map((question) => question.id));
    const answers = new Map<number, string>();
    for (const [key, value] of Object.entries(input)) {
      const path = `essayAnswers.${key}`;
      const id = /^\d{1,9}$/.test(key) ? Number(key) : NaN;
      if (!questions.has(id))
        throw ValidationError.field(path, `${key} is not an essay question's id`);
      if (typeof value !== "string") throw ValidationError.field(path, "An answer is text");
      if (value.length > ESSAY_MAX) {
        throw ValidationError.field(path, `An answer has at most ${ESSAY_MAX} characters`);
      }
      answers.set(id, value);
    }
    return answers;
  }
}

const ids = (lessons: { lessonId: number }[]): number[] => lessons.map((lesson) => lesson.lessonId);

/** Whether anything of Chaplaincy 101 was saved (the record also holds the other course). */
function hasChaplaincy(record: ProgressRecord): boolean {
  const course = record.chaplaincy;
  return Boolean(
    course &&
    (course.completedLessonIds?.length > 0 ||
      Object.keys(course.essayAnswers ?? {}).length > 0 ||
      course.completedAt),
  );
}

function remaining<L extends { lessonId: number }>(lessons: L[], completed: number[]): L[] {
  const done = new Set(completed);
  return lessons.filter((lesson) => !done.has(lesson.lessonId));
}

function chaplaincyView(record: ProgressRecord): CourseProgress {
  const answers = record.chaplaincy?.essayAnswers ?? {};
  return {
    completedLessonIds: [...(record.chaplaincy?.completedLessonIds ?? [])].sort((a, b) => a - b),
    essayAnswers: Object.fromEntries(
      Object.entries(answers).map(([key, text]) => [key.replace(/^q/, ""), text]),
    ),
    completedAt: record.chaplaincy?.completedAt ?? null,
  };
}
