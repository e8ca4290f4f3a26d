import { Field, ID, Int, ObjectType } from "type-graphql";
import { DateTimeScalar } from "../../graphql/date-time";
import { PayloadType } from "../../graphql/envelopes";
import { PublicRecordStatus, PublicRecordType } from "./public-record.model";

@ObjectType("PublicRecordAttachment", { simpleResolvers: true })
export class PublicRecordAttachment {
  @Field(() => ID) id!: string;
  @Field({ description: "A signed link for its owner, its public URL on the public page" })
  fileUrl!: string;
  @Field() fileName!: string;
  @Field({ description: "Decided by the file's bytes" }) mimeType!: string;
  @Field(() => Int) sortOrder!: number;
  @Field(() => DateTimeScalar) createdAt!: Date;
}

@ObjectType("MemberPublicRecord", {
  simpleResolvers: true,
  description: "An activity, service or recognition a member reports on the public page",
})
export class MemberPublicRecord {
  @Field(() => ID) id!: string;
  @Field() title!: string;
  @Field({ description: "HTML: formatting tags only" }) shortDescription!: string;
  @Field(() => PublicRecordType) type!: PublicRecordType;
  @Field(() => DateTimeScalar) eventAt!: Date;
  @Field() location!: string;
  @Field(() => PublicRecordStatus) status!: PublicRecordStatus;
  @Field(() => [PublicRecordAttachment]) attachments!: PublicRecordAttachment[];
  @Field(() => DateTimeScalar) createdAt!: Date;
  @Field(() => DateTimeScalar) updatedAt!: Date;
}

export const MemberPublicRecordPayload = PayloadType(
  MemberPublicRecord,
  "MemberPublicRecordPayload",
);

@ObjectType("MemberPublicRecordList", { simpleResolvers: true })
export class MemberPublicRecordList {
  @Field() code!: string;
  @Field() message!: string;
  @Field(() => [MemberPublicRecord], { description: "Newest event first, drafts included" })
  data!: MemberPublicRecord[];
}
