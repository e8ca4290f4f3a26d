import { IsOptional, MaxLength } from "class-validator";
import { UUIDResolver } from "graphql-scalars";
import { DateTimeScalar } from "../../graphql/date-time";
import { ArgsType, Field } from "type-graphql";
import { PageArgs } from "../../graphql/paging";

const PLACE_MAX = 300;

/** POST /offices/{id}/holders */
@ArgsType()
export class AppointOfficeHolderArgs {
  @Field(() => UUIDResolver, { description: "The office title" })
  id!: string;

  @Field(() => UUIDResolver, { description: "An APPROVED, active member record" })
  memberId!: string;

  @Field(() => DateTimeScalar, { description: "When the term starts" })
  startDate!: Date;

  @Field(() => DateTimeScalar, {
    nullable: true,
    description: "When the term ends (after startDate); none for an open-ended term",
  })
  endDate?: Date | null;

  @PlaceText("The department or unit the office serves, e.g. a hospital or a police office")
  department?: string | null;

  @PlaceText("The area the office serves, down to the barangay, as far as it applies")
  region?: string | null;

  @PlaceText() province?: string | null;
  @PlaceText() cityMunicipality?: string | null;
  @PlaceText() barangay?: string | null;
}

/** Where an appointment serves: optional text, blank taken as none. */
function PlaceText(description?: string): PropertyDecorator {
  return (target, property) => {
    Field(() => String, { nullable: true, description })(target, property);
    IsOptional()(target, property);
    MaxLength(PLACE_MAX)(target, property);
  };
}

/** PATCH /offices/{id}/holders/{holderId}/end */
@ArgsType()
export class EndOfficeHolderArgs {
  @Field(() => UUIDResolver, { description: "The office title" })
  id!: string;

  @Field(() => UUIDResolver)
  holderId!: string;
}

/** GET /offices/{id}/holders and GET /members/{id}/offices; `search` matches the holder's name. */
@ArgsType()
export class HolderListArgs extends PageArgs {
  @Field(() => UUIDResolver, { description: "The office title, or the member record" })
  id!: string;

  @Field({ defaultValue: false, description: "Also list ended and expired appointments" })
  includeEnded!: boolean;
}
