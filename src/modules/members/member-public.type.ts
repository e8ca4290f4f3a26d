import { DateTimeScalar } from "../../graphql/date-time";
import { Field, ID, ObjectType } from "type-graphql";
import { PayloadType } from "../../graphql/envelopes";
import { OfficeLevel } from "../offices/office-level";
import { MemberStatus } from "./member.enums";

@ObjectType("PublicOffice", { simpleResolvers: true })
export class PublicOffice {
  @Field() title!: string;
  @Field(() => OfficeLevel) level!: OfficeLevel;
}

/**
 * What anyone may read of an APPROVED member to check a credential (docs/privacy.md): nothing
 * that locates or contacts the person.
 */
@ObjectType("PublicMember", {
  simpleResolvers: true,
  description: "The public credential check of an approved member",
})
export class PublicMember {
  @Field(() => ID) id!: string;
  @Field({ description: "First name, middle initial, last name and suffix" }) fullName!: string;
  @Field(() => MemberStatus) status!: MemberStatus;
  @Field(() => DateTimeScalar, { description: "When the application was approved" })
  memberSince!: Date;
  @Field(() => [PublicOffice], { description: "The offices the member holds now" })
  offices!: PublicOffice[];
}

export const PublicMemberPayload = PayloadType(PublicMember, "PublicMemberPayload");
