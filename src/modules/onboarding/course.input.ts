import {
  ArrayMaxSize,
  IsBoolean,
  IsInt,
  IsOptional,
  IsUrl,
  Length,
  Matches,
  Max,
  Min,
} from "class-validator";
import { JSONObjectResolver } from "graphql-scalars";
import { ArgsType, Field, Int } from "type-graphql";
import { Course } from "./course.model";

const URL_RULE = { protocols: ["http", "https"], require_protocol: true };

@ArgsType()
export class LessonListArgs {
  @Field(() => Course, { nullable: true, description: "One course; both when absent" })
  @IsOptional()
  course?: Course;
}

@ArgsType()
export class CreateLessonArgs {
  @Field(() => Course) course!: Course;

  @Field()
  @Length(1, 200)
  @Matches(/\S/, { message: "title must not be blank" })
  title!: string;

  @Field(() => Int, { nullable: true, description: "Position in the course; last when absent" })
  @IsOptional()
  @Min(0)
  @Max(10_000)
  order?: number;

  @Field(() => String, { nullable: true })
  @IsOptional()
  @IsUrl(URL_RULE)
  contentUrl?: string | null;
}

@ArgsType()
export class UpdateLessonArgs {
  @Field(() => Course) course!: Course;
  @Field(() => Int) @IsInt() @Min(1) id!: number;

  @Field(() => String, { nullable: true })
  @IsOptional()
  @Length(1, 200)
  @Matches(/\S/, { message: "title must not be blank" })
  title?: string;

  @Field(() => Int, { nullable: true })
  @IsOptional()
  @Min(0)
  @Max(10_000)
  order?: number;

  @Field(() => String, { nullable: true, description: "null clears it" })
  @IsOptional()
  @IsUrl(URL_RULE)
  contentUrl?: string | null;
}

@ArgsType()
export class LessonKeyArgs {
  @Field(() => Course) course!: Course;
  @Field(() => Int) @IsInt() @Min(1) id!: number;
}

@ArgsType()
export class CreateEssayQuestionArgs {
  @Field()
  @Length(1, 2000)
  @Matches(/\S/, { message: "prompt must not be blank" })
  prompt!: string;

  @Field(() => Int, { nullable: true })
  @IsOptional()
  @Min(0)
  @Max(10_000)
  order?: number;
}

@ArgsType()
export class UpdateEssayQuestionArgs {
  @Field(() => Int) @IsInt() @Min(1) id!: number;

  @Field(() => String, { nullable: true })
  @IsOptional()
  @Length(1, 2000)
  @Matches(/\S/, { message: "prompt must not be blank" })
  prompt?: string;

  @Field(() => Int, { nullable: true })
  @IsOptional()
  @Min(0)
  @Max(10_000)
  order?: number;
}

@ArgsType()
export class SavePreOrientationArgs {
  @Field(() => [Int])
  @ArrayMaxSize(500)
  @IsInt({ each: true })
  completedLessonIds!: number[];

  @Field(() => Boolean, { nullable: true, description: "true: the member says they are done" })
  @IsOptional()
  @IsBoolean()
  isCompleted?: boolean;
}

@ArgsType()
export class SaveChaplaincyTrainingArgs extends SavePreOrientationArgs {
  @Field(() => JSONObjectResolver, {
    nullable: true,
    description: 'Answers by question id: {"1": "…"}, each up to 5 000 characters',
  })
  @IsOptional()
  essayAnswers?: Record<string, unknown>;
}
