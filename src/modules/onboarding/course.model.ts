import { Schema, type Connection, type Model } from "mongoose";
import { registerEnumType } from "type-graphql";

export enum Course {
  PRE_ORIENTATION = "PRE_ORIENTATION",
  CHAPLAINCY_101 = "CHAPLAINCY_101",
}

registerEnumType(Course, { name: "Course", description: "A course of the onboarding" });

/** A lesson: ids are integers counted per course (`_id` is `<course>:<id>`). */
export interface LessonRecord {
  _id: string;
  course: Course;
  lessonId: number;
  title: string;
  order: number;
  contentUrl: string | null;
  createdAt: Date;
  updatedAt: Date;
}

/** An essay question of Chaplaincy 101 (`_id` is its integer id). */
export interface EssayQuestionRecord {
  _id: number;
  prompt: string;
  order: number;
  createdAt: Date;
  updatedAt: Date;
}

/** The next integer id of each catalogue (`lessons:<course>`, `essayQuestions`), and markers. */
export interface CatalogueCounterRecord {
  _id: string;
  seq: number;
}

const lessonSchema = new Schema<LessonRecord>(
  {
    _id: { type: String, required: true },
    course: { type: String, enum: Object.values(Course), required: true },
    lessonId: { type: Number, required: true },
    title: { type: String, required: true },
    order: { type: Number, required: true },
    contentUrl: { type: String, default: null },
  },
  { timestamps: true, versionKey: false },
);
lessonSchema.index({ course: 1, order: 1, lessonId: 1 });

const questionSchema = new Schema<EssayQuestionRecord>(
  {
    _id: { type: Number, required: true },
    prompt: { type: String, required: true },
    order: { type: Number, required: true },
  },
  { timestamps: true, versionKey: false },
);
questionSchema.index({ order: 1, _id: 1 });

const counterSchema = new Schema<CatalogueCounterRecord>(
  { _id: { type: String }, seq: { type: Number, required: true } },
  { versionKey: false },
);

export type LessonModel = Model<LessonRecord>;
export type EssayQuestionModel = Model<EssayQuestionRecord>;
export type CatalogueCounterModel = Model<CatalogueCounterRecord>;

export function createCourseModels(connection: Connection) {
  return {
    lessons: connection.model<LessonRecord>("Lesson", lessonSchema, "lessons"),
    questions: connection.model<EssayQuestionRecord>(
      "EssayQuestion",
      questionSchema,
      "essay_questions",
    ),
    counters: connection.model<CatalogueCounterRecord>(
      "CatalogueCounter",
      counterSchema,
      "catalogue_counters",
    ),
  };
}
