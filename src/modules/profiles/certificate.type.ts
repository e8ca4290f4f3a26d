import { Field, ID, ObjectType } from "type-graphql";
import { DateTimeScalar } from "../../graphql/date-time";
import { PayloadType } from "../../graphql/envelopes";

@ObjectType("MemberCertificate", {
  simpleResolvers: true,
  description: "A certificate a member shows on the public page",
})
export class MemberCertificate {
  @Field(() => ID) id!: string;
  @Field({ description: "The certificate's number, issued here: CERT-XXXX-XXXX" })
  credentialId!: string;
  @Field() title!: string;
  @Field({
    description:
      "The file: a signed link for its owner, its public URL on the public page (listed members)",
  })
  certificateUrl!: string;
  @Field(() => DateTimeScalar, { description: "When the member received it" })
  dateReceived!: Date;
  @Field(() => DateTimeScalar) createdAt!: Date;
}

export const MemberCertificatePayload = PayloadType(MemberCertificate, "MemberCertificatePayload");

@ObjectType("MemberCertificateList", { simpleResolvers: true })
export class MemberCertificateList {
  @Field() code!: string;
  @Field() message!: string;
  @Field(() => [MemberCertificate], { description: "Newest received first" })
  data!: MemberCertificate[];
}
