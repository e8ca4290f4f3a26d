import { NotFoundError } from "../../errors/app-errors";
import { Course, type LessonRecord } from "./course.model";
import type { CourseRepository } from "./course.repository";
import type {
  CreateEssayQuestionArgs,
  CreateLessonArgs,
  UpdateEssayQuestionArgs,
  UpdateLessonArgs,
} from "./course.input";
import { EssayQuestion, Lesson } from "./course.type";

/** The lessons and essay questions administrators keep for the training step. */
export class CourseCatalogueService {
  constructor(private readonly courses: CourseRepository) {}

  async lessons(course?: Course | null): Promise<Lesson[]> {
    const courses = course ? [course] : Object.values(Course);
    const found = await Promise.all(courses.map((one) => this.courses.lessonsOf(one)));
    return found.flat().map((record) => Lesson.from(record));
  }

  /** The course's lessons as stored (for the progress rules). */
  lessonRecords(course: Course): Promise<LessonRecord[]> {
    return this.courses.lessonsOf(course);
  }

  async createLesson(args: CreateLessonArgs): Promise<Lesson> {
    const order = args.order ?? (await this.courses.lessonsOf(args.course)).length + 1;
    const record = await this.courses.insertLesson({
      course: args.course,
      title: args.title.trim(),
      order,
      contentUrl: args.contentUrl ?? null,
    });
    return Lesson.from(record);
  }

  async updateLesson(args: UpdateLessonArgs): Promise<Lesson> {
    const changes: Partial<LessonRecord> = {};
    if (args.title !== undefined) changes.title = args.title.trim();
    if (args.order !== undefined) changes.order = args.order;
    if (args.contentUrl !== undefined) changes.contentUrl = args.contentUrl;
    const updated = await this.courses.updateLesson(args.course, args.id, changes);
    if (!updated) throw lessonNotFound(args.course, args.id);
    return Lesson.from(updated);
  }

  async deleteLesson(course: Course, id: number): Promise<void> {
    if (!(await this.courses.deleteLesson(course, id))) throw lessonNotFound(course, id);
  }

  async questions(): Promise<EssayQuestion[]> {
    return (await this.courses.allQuestions()).map((record) => EssayQuestion.from(record));
  }

  async createQuestion(args: CreateEssayQuestionArgs): Promise<EssayQuestion> {
    const order = args.order ?? (await this.courses.allQuestions()).length + 1;
    return EssayQuestion.from(
      await this.courses.insertQuestion({ prompt: args.prompt.trim(), order }),
    );
  }

  async updateQuestion(args: UpdateEssayQuestionArgs): Promise<EssayQuestion> {
    const changes: { prompt?: string; order?: number } = {};
    if (args.prompt !== undefined) changes.prompt = args.prompt.trim();
    if (args.order !== undefined) changes.order = args.order;
    const updated = await this.courses.updateQuestion(args.id, changes);
    if (!updated) throw new NotFoundError(`No essay question has id ${args.id}`);
    return EssayQuestion.from(updated);
  }

  async deleteQuestion(id: number): Promise<void> {
    if (!(await this.courses.deleteQuestion(id))) {
      throw new NotFoundError(`No essay question has id ${id}`);
    }
  }

  /** The defaults of a fresh database (a migration step). */
  seed(): Promise<number> {
    return this.courses.seedDefaults();
  }
}

function lessonNotFound(course: Course, id: number): NotFoundError {
  return new NotFoundError(`No ${course} lesson has id ${id}`);
}
