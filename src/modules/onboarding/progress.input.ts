import { IsOptional, Length, Matches } from "class-validator";
import { UUIDResolver } from "graphql-scalars";
import { ArgsType, Field } from "type-graphql";
import { DateTimeScalar } from "../../graphql/date-time";
import { PageArgs } from "../../graphql/paging";
import { OnboardingStep } from "./onboarding-steps";

@ArgsType()
export class MoveStepArgs {
  @Field(() => OnboardingStep) currentStep!: OnboardingStep;
}

@ArgsType()
export class OnboardingListArgs extends PageArgs {
  @Field(() => OnboardingStep, { nullable: true, description: "Members on this step only" })
  @IsOptional()
  step?: OnboardingStep;
}

@ArgsType()
export class RecordOathArgs {
  @Field(() => UUIDResolver, { description: "The member record's id" }) id!: string;
  @Field(() => DateTimeScalar) takenAt!: Date;

  @Field()
  @Length(1, 300)
  @Matches(/\S/, { message: "place must not be blank" })
  place!: string;

  @Field(() => String, { nullable: true })
  @IsOptional()
  @Length(1, 200)
  officiant?: string;
}
