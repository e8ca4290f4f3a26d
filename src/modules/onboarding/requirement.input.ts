import {
  ArrayMaxSize,
  ArrayMinSize,
  IsIn,
  IsOptional,
  Length,
  MaxLength,
  ValidateNested,
} from "class-validator";
import { UUIDResolver } from "graphql-scalars";
import { ArgsType, Field, InputType } from "type-graphql";
import { RequirementType, ReviewStatus } from "./requirement.model";

const TYPES = Object.values(RequirementType);

@InputType("RequirementAttachmentInput", {
  description: "One document: the file's id or a fileUrl this service issued (purpose REQUIREMENT)",
})
export class RequirementAttachmentInput {
  @Field(() => RequirementType)
  type!: RequirementType;

  @Field(() => String, { nullable: true })
  @IsOptional()
  @Length(1, 2000)
  fileUrl?: string;

  @Field(() => String, { nullable: true })
  @IsOptional()
  @Length(1, 200)
  fileId?: string;
}

@ArgsType()
export class SaveRequirementsArgs {
  @Field(() => [RequirementAttachmentInput])
  @ArrayMinSize(1)
  @ArrayMaxSize(TYPES.length)
  @ValidateNested({ each: true })
  attachments!: RequirementAttachmentInput[];
}

@ArgsType()
export class ReviewRequirementArgs {
  @Field(() => UUIDResolver, { description: "The member record's id" })
  id!: string;

  @Field(() => RequirementType)
  type!: RequirementType;

  @Field(() => ReviewStatus)
  @IsIn(Object.values(ReviewStatus))
  reviewStatus!: ReviewStatus;

  @Field(() => String, {
    nullable: true,
    description: "Required when REJECTED; mailed to the member",
  })
  @IsOptional()
  @MaxLength(2000)
  note?: string;
}
