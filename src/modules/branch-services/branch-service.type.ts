import { DateTimeScalar } from "../../graphql/date-time";
import { Field, ID, ObjectType } from "type-graphql";
import { PageType, PayloadType } from "../../graphql/envelopes";
import { Section } from "../sections/section.type";
import type { BranchServiceRecord } from "./branch-service.model";

@ObjectType("BranchService", {
  simpleResolvers: true,
  description: "A branch of service with descriptive sections",
})
export class BranchService {
  @Field(() => ID)
  id!: string;

  @Field()
  title!: string;

  @Field()
  description!: string;

  @Field(() => [Section])
  sections!: Section[];

  @Field(() => String, {
    nullable: true,
    description: "Always null; kept for the v1 response shape",
  })
  memberId!: null;

  @Field(() => DateTimeScalar)
  createdAt!: Date;

  @Field(() => DateTimeScalar)
  updatedAt!: Date;

  static from(record: BranchServiceRecord): BranchService {
    return Object.assign(new BranchService(), {
      id: record._id,
      title: record.title,
      description: record.description,
      sections: record.sections.map((section) => Section.from(section)),
      memberId: null,
      createdAt: record.createdAt,
      updatedAt: record.updatedAt,
    });
  }
}

export const BranchServicePayload = PayloadType(BranchService, "BranchServicePayload");
export const BranchServicePage = PageType(BranchService, "BranchServicePage");
