import { DateTimeScalar } from "../../graphql/date-time";
import { Field, ID, Int, ObjectType } from "type-graphql";
import { PageType, PayloadType } from "../../graphql/envelopes";
import { Section } from "../sections/section.type";
import { OfficeLevel } from "./office-level";
import type { OfficeRecord } from "./office.model";

@ObjectType("OfficeTitle", {
  simpleResolvers: true,
  description: "A chaplain office title in the hierarchy",
})
export class OfficeTitle {
  @Field(() => ID)
  id!: string;

  @Field()
  name!: string;

  @Field(() => OfficeLevel)
  level!: OfficeLevel;

  @Field(() => String, { nullable: true })
  description!: string | null;

  @Field(() => Int, { nullable: true, description: "How many may hold it at once; null: no limit" })
  maxSlots!: number | null;

  @Field(() => Int, { description: "Appointments running now" })
  activeHolders!: number;

  @Field(() => [Section])
  sections!: Section[];

  @Field(() => DateTimeScalar)
  createdAt!: Date;

  @Field(() => DateTimeScalar)
  updatedAt!: Date;

  static from(record: OfficeRecord): OfficeTitle {
    return Object.assign(new OfficeTitle(), {
      id: record._id,
      name: record.name,
      level: record.level,
      description: record.description ?? null,
      maxSlots: record.maxSlots ?? null,
      activeHolders: record.activeHolders ?? 0,
      sections: record.sections.map((section) => Section.from(section)),
      createdAt: record.createdAt,
      updatedAt: record.updatedAt,
    });
  }
}

export const OfficeTitlePayload = PayloadType(OfficeTitle, "OfficeTitlePayload");
export const OfficeTitlePage = PageType(OfficeTitle, "OfficeTitlePage");
