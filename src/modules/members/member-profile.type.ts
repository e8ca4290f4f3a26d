import { DateTimeScalar } from "../../graphql/date-time";
import { Field, ID, ObjectType } from "type-graphql";
import { MemberStatus } from "./member.enums";

/** The account's latest application, as the web client reads it to pick form or status page. */
@ObjectType("MemberProfile", {
  simpleResolvers: true,
  description: "The account's latest membership application",
})
export class MemberProfile {
  @Field(() => ID) id!: string;
  @Field(() => MemberStatus) status!: MemberStatus;
  @Field({ description: "False while the record is archived" }) isActive!: boolean;
  @Field(() => DateTimeScalar) createdAt!: Date;
  @Field(() => String, {
    nullable: true,
    description: "POI-<YYYY>-<NNNNN>, given at the first approval; null before",
  })
  uniqueId!: string | null;
}
