import { JSONObjectResolver } from "graphql-scalars";
import { Field, Int, ObjectType } from "type-graphql";
import { DateTimeScalar } from "../../graphql/date-time";
import { PayloadType } from "../../graphql/envelopes";
import { Course, type EssayQuestionRecord, type LessonRecord } from "./course.model";

@ObjectType("Lesson", { simpleResolvers: true, description: "A lesson of an onboarding course" })
export class Lesson {
  @Field(() => Int, { description: "Counted per course from 1" }) id!: number;
  @Field(() => Course) course!: Course;
  @Field() title!: string;
  @Field(() => Int) order!: number;
  @Field(() => String, { nullable: true, description: "A video or slide deck" })
  contentUrl!: string | null;

  static from(record: LessonRecord): Lesson {
    return Object.assign(new Lesson(), {
      id: record.lessonId,
      course: record.course,
      title: record.title,
      order: record.order,
      contentUrl: record.contentUrl,
    });
  }
}

@ObjectType("EssayQuestion", {
  simpleResolvers: true,
  description: "A Chaplaincy 101 essay question",
})
export class EssayQuestion {
  @Field(() => Int) id!: number;
  @Field() prompt!: string;
  @Field(() => Int) order!: number;

  static from(record: EssayQuestionRecord): EssayQuestion {
    return Object.assign(new EssayQuestion(), {
      id: record._id,
      prompt: record.prompt,
      order: record.order,
    });
  }
}

@ObjectType("LessonList", { simpleResolvers: true })
export class LessonList {
  @Field() code!: string;
  @Field() message!: string;
  @Field(() => [Lesson]) data!: Lesson[];
}

@ObjectType("EssayQuestionList", { simpleResolvers: true })
export class EssayQuestionList {
  @Field() code!: string;
  @Field() message!: string;
  @Field(() => [EssayQuestion]) data!: EssayQuestion[];
}

export const LessonPayload = PayloadType(Lesson, "LessonPayload");
export const EssayQuestionPayload = PayloadType(EssayQuestion, "EssayQuestionPayload");

@ObjectType("CourseProgress", {
  simpleResolvers: true,
  description: "What the member completed of a course (and answered, for Chaplaincy 101)",
})
export class CourseProgress {
  @Field(() => [Int]) completedLessonIds!: number[];
  @Field(() => JSONObjectResolver, {
    nullable: true,
    description: 'Answers by question id ({"1": "…"}); null for the pre-orientation',
  })
  essayAnswers!: Record<string, string> | null;
  @Field(() => DateTimeScalar, { nullable: true }) completedAt!: Date | null;
}

@ObjectType("CourseProgressPayload", { simpleResolvers: true })
export class CourseProgressPayload {
  @Field() code!: string;
  @Field() message!: string;
  @Field(() => CourseProgress, { nullable: true, description: "Null until something was saved" })
  data!: CourseProgress | null;
}
