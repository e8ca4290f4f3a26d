import { Schema, type Connection, type Model } from "mongoose";

/** What one member did of the courses and the oath (`_id` is the member's id). */
export interface ProgressRecord {
  _id: string;
  userId: string;
  preOrientation: { completedLessonIds: number[]; completedAt: Date | null };
  chaplaincy: {
    completedLessonIds: number[];
    /** Keyed `q<question id>` (a key that is no array index on either engine). */
    essayAnswers: Record<string, string>;
    completedAt: Date | null;
  };
  oath: {
    takenAt: Date;
    place: string;
    officiant: string | null;
    recordedBy: string;
    recordedAt: Date;
  } | null;
  completedAt: Date | null;
  createdAt: Date;
  updatedAt: Date;
}

const courseProgress = (withEssays: boolean) =>
  new Schema(
    {
      completedLessonIds: { type: [Number], default: [] },
      ...(withEssays ? { essayAnswers: { type: Schema.Types.Mixed, default: () => ({}) } } : {}),
      completedAt: { type: Date, default: null },
    },
    { _id: false },
  );

const progressSchema = new Schema<ProgressRecord>(
  {
    _id: { type: String, required: true },
    userId: { type: String, required: true },
    preOrientation: { type: courseProgress(false), default: () => ({}) },
    chaplaincy: { type: courseProgress(true), default: () => ({}) },
    oath: {
      type: new Schema(
        {
          takenAt: Date,
          place: String,
          officiant: { type: String, default: null },
          recordedBy: String,
          recordedAt: Date,
        },
        { _id: false },
      ),
      default: null,
    },
    completedAt: { type: Date, default: null },
  },
  { timestamps: true, versionKey: false },
);
progressSchema.index({ userId: 1 });

export type ProgressModel = Model<ProgressRecord>;

export function createProgressModel(connection: Connection): ProgressModel {
  return connection.model<ProgressRecord>(
    "OnboardingProgress",
    progressSchema,
    "onboarding_progress",
  );
}
