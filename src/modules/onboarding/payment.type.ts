import { Field, Float, ID, ObjectType } from "type-graphql";
import { DateTimeScalar } from "../../graphql/date-time";
import { PageType } from "../../graphql/envelopes";
import { PaymentMethod, PaymentStatus } from "./payment.model";

@ObjectType("MembershipPayment", {
  simpleResolvers: true,
  description: "The membership fee and its proof",
})
export class MembershipPayment {
  @Field(() => PaymentMethod) paymentMethod!: PaymentMethod;
  @Field(() => String, { nullable: true, description: "Signed link to the proof, rendered now" })
  proofOfPaymentUrl!: string | null;
  @Field(() => ID, { nullable: true }) proofFileId!: string | null;
  @Field() isPromissoryNote!: boolean;
  @Field(() => String, { nullable: true }) promissoryNoteUrl!: string | null;
  @Field(() => ID, { nullable: true }) promissoryNoteFileId!: string | null;
  @Field(() => Float) amount!: number;
  @Field() currency!: string;
  @Field(() => PaymentStatus) status!: PaymentStatus;
  @Field(() => String, { nullable: true }) reviewNote!: string | null;
  @Field(() => DateTimeScalar) submittedAt!: Date;
  @Field(() => DateTimeScalar, { nullable: true }) verifiedAt!: Date | null;
}

@ObjectType("MembershipPaymentPayload", { simpleResolvers: true })
export class MembershipPaymentPayload {
  @Field() code!: string;
  @Field() message!: string;
  @Field(() => MembershipPayment, {
    nullable: true,
    description: "Null until a payment was submitted",
  })
  data!: MembershipPayment | null;
}

@ObjectType("SubmittedPayment", {
  simpleResolvers: true,
  description: "A payment with whose it is",
})
export class SubmittedPayment extends MembershipPayment {
  @Field(() => ID) memberId!: string;
  @Field(() => String, { nullable: true }) uniqueId!: string | null;
  @Field() fullName!: string;
}

export const SubmittedPaymentPage = PageType(SubmittedPayment, "SubmittedPaymentPage");
