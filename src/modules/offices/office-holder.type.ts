import { DateTimeScalar } from "../../graphql/date-time";
import { Field, ID, ObjectType } from "type-graphql";
import { PageType, PayloadType } from "../../graphql/envelopes";
import { OfficeLevel } from "./office-level";
import { isActive, type OfficeHolderRecord } from "./office-holder.model";
import type { OfficeRecord } from "./office.model";

@ObjectType("OfficeHolderMember", {
  simpleResolvers: true,
  description: "Who holds an office: the member record's id and name, nothing more",
})
export class OfficeHolderMember {
  @Field(() => ID)
  id!: string;

  @Field()
  name!: string;
}

@ObjectType("OfficeHolderOffice", {
  simpleResolvers: true,
  description: "The office an appointment is to",
})
export class OfficeHolderOffice {
  @Field(() => ID)
  id!: string;

  @Field()
  name!: string;

  @Field(() => OfficeLevel)
  level!: OfficeLevel;
}

@ObjectType("OfficeHolder", {
  simpleResolvers: true,
  description: "An appointment of a member to an office title",
})
export class OfficeHolder {
  @Field(() => ID)
  id!: string;

  @Field(() => OfficeHolderOffice)
  office!: OfficeHolderOffice;

  @Field(() => OfficeHolderMember)
  member!: OfficeHolderMember;

  @Field(() => DateTimeScalar)
  startDate!: Date;

  @Field(() => DateTimeScalar, { nullable: true, description: "Planned end of the term" })
  endDate!: Date | null;

  @Field(() => DateTimeScalar, { nullable: true, description: "When it was ended" })
  endedAt!: Date | null;

  @Field({ description: "Counts against maxSlots: not ended and not past its end date" })
  isActive!: boolean;

  @Field(() => DateTimeScalar, { description: "When the appointment was made" })
  createdAt!: Date;

  static from(
    record: OfficeHolderRecord,
    office: Pick<OfficeRecord, "_id" | "name" | "level">,
  ): OfficeHolder {
    return Object.assign(new OfficeHolder(), {
      id: record._id,
      office: { id: office._id, name: office.name, level: office.level },
      member: { id: record.memberId, name: record.name },
      startDate: record.startDate,
      endDate: record.endDate ?? null,
      endedAt: record.endedAt ?? null,
      // A term counts until it is released, or found past its end date (then released soon).
      isActive: (record.releasedAt ?? null) === null && isActive(record),
      createdAt: record.createdAt,
    });
  }
}

export const OfficeHolderPayload = PayloadType(OfficeHolder, "OfficeHolderPayload");
export const OfficeHolderPage = PageType(OfficeHolder, "OfficeHolderPage");
