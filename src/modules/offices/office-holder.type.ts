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

  @Field(() => String, { nullable: true, description: "The department or unit served" })
  department!: string | null;

  @Field(() => String, { nullable: true, description: "The area served" })
  region!: string | null;

  @Field(() => String, { nullable: true })
  province!: string | null;

  @Field(() => String, { nullable: true })
  cityMunicipality!: string | null;

  @Field(() => String, { nullable: true })
  barangay!: string | null;

  @Field(() => DateTimeScalar, { description: "When the appointment was made" })
  createdAt!: Date;

  /** The appointment as read at `now` (the service's clock). */
  static from(
    record: OfficeHolderRecord,
    office: Pick<OfficeRecord, "_id" | "name" | "level">,
    now: Date,
  ): OfficeHolder {
    return Object.assign(new OfficeHolder(), {
      id: record._id,
      office: { id: office._id, name: office.name, level: office.level },
      member: { id: record.memberId, name: record.name },
      startDate: record.startDate,
      endDate: record.endDate ?? null,
      endedAt: record.endedAt ?? null,
      // A term counts until it is released, or found past its end date (then released soon).
      isActive: (record.releasedAt ?? null) === null && isActive(record, now),
      ...placeOf(record),
      createdAt: record.createdAt,
    });
  }
}

/** Where an appointment serves; appointments of an earlier version have no place fields. */
export function placeOf(record: Partial<Pick<OfficeHolderRecord, PlaceField>>) {
  return {
    department: record.department ?? null,
    region: record.region ?? null,
    province: record.province ?? null,
    cityMunicipality: record.cityMunicipality ?? null,
    barangay: record.barangay ?? null,
  };
}

export type PlaceField = "department" | "region" | "province" | "cityMunicipality" | "barangay";

export const OfficeHolderPayload = PayloadType(OfficeHolder, "OfficeHolderPayload");
export const OfficeHolderPage = PageType(OfficeHolder, "OfficeHolderPage");
