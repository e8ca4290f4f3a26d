import type {
  CatalogueCounterModel,
  Course,
  EssayQuestionModel,
  EssayQuestionRecord,
  LessonModel,
  LessonRecord,
} from "./course.model";
import { DEFAULT_ESSAY_QUESTIONS, DEFAULT_LESSONS } from "./course-defaults";

const SEEDED = "defaults-seeded";
const questionCounter = "essayQuestions";
const lessonCounter = (course: Course) => `lessons:${course}`;

/** Every database call on the lessons and essay questions catalogue. */
export class CourseRepository {
  constructor(
    private readonly lessons: LessonModel,
    private readonly questions: EssayQuestionModel,
    private readonly counters: CatalogueCounterModel,
  ) {}

  lessonsOf(course: Course): Promise<LessonRecord[]> {
    return this.lessons
      .find({ course })
      .sort({ order: 1, lessonId: 1 })
      .lean<LessonRecord[]>()
      .exec();
  }

  findLesson(course: Course, lessonId: number): Promise<LessonRecord | null> {
    return this.lessons.findById(`${course}:${lessonId}`).lean<LessonRecord>().exec();
  }

  async insertLesson(fields: Omit<LessonRecord, "_id" | "lessonId" | "createdAt" | "updatedAt">) {
    const lessonId = await this.next(lessonCounter(fields.course));
    const created = await this.lessons.create({
      ...fields,
      _id: `${fields.course}:${lessonId}`,
      lessonId,
    });
    return created.toObject();
  }

  updateLesson(course: Course, lessonId: number, changes: Partial<LessonRecord>) {
    return this.lessons
      .findByIdAndUpdate(`${course}:${lessonId}`, { $set: changes }, { returnDocument: "after" })
      .lean<LessonRecord>()
      .exec();
  }

  async deleteLesson(course: Course, lessonId: number): Promise<boolean> {
    const result = await this.lessons.deleteOne({ _id: `${course}:${lessonId}` }).exec();
    return result.deletedCount > 0;
  }

  allQuestions(): Promise<EssayQuestionRecord[]> {
    return this.questions.find({}).sort({ order: 1, _id: 1 }).lean<EssayQuestionRecord[]>().exec();
  }

  async insertQuestion(fields: Pick<EssayQuestionRecord, "prompt" | "order">) {
    const id = await this.next(questionCounter);
    return (await this.questions.create({ ...fields, _id: id })).toObject();
  }

  updateQuestion(id: number, changes: Partial<EssayQuestionRecord>) {
    return this.questions
      .findByIdAndUpdate(id, { $set: changes }, { returnDocument: "after" })
      .lean<EssayQuestionRecord>()
      .exec();
  }

  async deleteQuestion(id: number): Promise<boolean> {
    return (await this.questions.deleteOne({ _id: id }).exec()).deletedCount > 0;
  }

  /**
   * A fresh database gets the organisation's defaults, once: upserts that only insert, then a
   * marker, so a restart (or a second instance starting meanwhile) neither duplicates them nor
   * brings back what administrators deleted. Returns how many were written.
   */
  async seedDefaults(): Promise<number> {
    if (await this.counters.exists({ _id: SEEDED }).exec()) return 0;
    let written = 0;
    for (const [course, titles] of Object.entries(DEFAULT_LESSONS) as [Course, string[]][]) {
      for (const [index, title] of titles.entries()) {
        const lessonId = index + 1;
        const result = await this.lessons
          .updateOne(
            { _id: `${course}:${lessonId}` },
            { $setOnInsert: { course, lessonId, title, order: lessonId, contentUrl: null } },
            { upsert: true, timestamps: true },
          )
          .exec();
        written += result.upsertedCount;
      }
      await this.raiseCounter(lessonCounter(course), titles.length);
    }
    for (const [index, prompt] of DEFAULT_ESSAY_QUESTIONS.entries()) {
      const result = await this.questions
        .updateOne(
          { _id: index + 1 },
          { $setOnInsert: { prompt, order: index + 1 } },
          { upsert: true, timestamps: true },
        )
        .exec();
      written += result.upsertedCount;
    }
    await this.raiseCounter(questionCounter, DEFAULT_ESSAY_QUESTIONS.length);
    await this.raiseCounter(SEEDED, 1);
    return written;
  }

  private async next(counter: string): Promise<number> {
    const record = await this.counters
      .findOneAndUpdate(
        { _id: counter },
        { $inc: { seq: 1 } },
        { upsert: true, returnDocument: "after" },
      )
      .lean<{ seq: number }>()
      .exec();
    return record.seq;
  }

  private async raiseCounter(counter: string, atLeast: number): Promise<void> {
    await this.counters
      .updateOne({ _id: counter }, { $max: { seq: atLeast } }, { upsert: true })
      .exec();
  }
}
