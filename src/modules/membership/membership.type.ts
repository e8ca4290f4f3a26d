import { IsIn, IsOptional, Length, Matches, MaxLength } from "class-validator";
import { UUIDResolver } from "graphql-scalars";
import { ArgsType, Field, Float, ID, Int, ObjectType } from "type-graphql";
import { DateTimeScalar } from "../../graphql/date-time";
import { PageWindowArgs } from "../../graphql/paging";
import { Pagination } from "../../graphql/envelopes";
import { PaymentMethod } from "../onboarding/payment.model";
import { Standing } from "./membership-year";
import { RenewalStatus } from "./membership.model";

@ObjectType("Renewal", { simpleResolvers: true, description: "A renewal of the membership year" })
export class Renewal {
  @Field(() => ID) id!: string;
  @Field(() => ID) memberId!: string;
  @Field(() => PaymentMethod) paymentMethod!: PaymentMethod;
  @Field(() => String, { nullable: true, description: "A signed link to the proof" })
  proofOfPaymentUrl!: string | null;
  @Field(() => Float) amount!: number;
  @Field() currency!: string;
  @Field(() => RenewalStatus) status!: RenewalStatus;
  @Field(() => String, { nullable: true }) note!: string | null;
  @Field(() => DateTimeScalar) submittedAt!: Date;
  @Field(() => DateTimeScalar, { nullable: true }) decidedAt!: Date | null;
  @Field(() => DateTimeScalar, { nullable: true, description: "The end before a verification" })
  previousExpiresAt!: Date | null;
  @Field(() => DateTimeScalar, { nullable: true, description: "The end a verification set" })
  extendedTo!: Date | null;
}

@ObjectType("SubmittedRenewal", { simpleResolvers: true })
export class SubmittedRenewal extends Renewal {
  @Field(() => String, { nullable: true }) uniqueId!: string | null;
  @Field() fullName!: string;
  @Field(() => DateTimeScalar, { nullable: true }) membershipExpiresAt!: Date | null;
}

@ObjectType("RenewalPayload", { simpleResolvers: true })
export class RenewalPayload {
  @Field() code!: string;
  @Field() message!: string;
  @Field(() => Renewal) data!: Renewal;
}

@ObjectType("RenewalPage", { simpleResolvers: true })
export class RenewalPage {
  @Field() code!: string;
  @Field() message!: string;
  @Field(() => [SubmittedRenewal]) data!: SubmittedRenewal[];
  @Field(() => Pagination) pagination!: Pagination;
}

@ObjectType("MembershipYear", {
  simpleResolvers: true,
  description: "The caller's membership year",
})
export class MembershipYear {
  @Field(() => ID) memberId!: string;
  @Field(() => Standing) standing!: Standing;
  @Field(() => DateTimeScalar, { nullable: true, description: "The oath's day; null before it" })
  startedAt!: Date | null;
  @Field(() => DateTimeScalar, { nullable: true, description: "null before the oath" })
  membershipExpiresAt!: Date | null;
  @Field(() => DateTimeScalar, { nullable: true, description: "From 60 days before the end" })
  renewalOpensAt!: Date | null;
  @Field(() => DateTimeScalar, { nullable: true, description: "Until 90 days after the end" })
  renewalClosesAt!: Date | null;
  @Field(() => Renewal, { nullable: true, description: "The latest renewal submitted" })
  renewal!: Renewal | null;
}

@ObjectType("MembershipYearPayload", { simpleResolvers: true })
export class MembershipYearPayload {
  @Field() code!: string;
  @Field() message!: string;
  @Field(() => MembershipYear, { nullable: true, description: "null without an approved record" })
  data!: MembershipYear | null;
}

@ObjectType("CredentialRevocation", { simpleResolvers: true })
export class CredentialRevocation {
  @Field(() => ID) memberId!: string;
  @Field(() => Standing) standing!: Standing;
  @Field(() => DateTimeScalar) revokedAt!: Date;
  @Field() reason!: string;
}

@ObjectType("CredentialRevocationPayload", { simpleResolvers: true })
export class CredentialRevocationPayload {
  @Field() code!: string;
  @Field() message!: string;
  @Field(() => CredentialRevocation) data!: CredentialRevocation;
}

@ObjectType("MembershipExport", {
  simpleResolvers: true,
  description: "The membership year and renewals as kept (proof files are listed with the files)",
})
export class MembershipExport {
  @Field(() => DateTimeScalar, { nullable: true }) startedAt!: Date | null;
  @Field(() => DateTimeScalar, { nullable: true }) membershipExpiresAt!: Date | null;
  @Field(() => DateTimeScalar, { nullable: true }) revokedAt!: Date | null;
  @Field(() => String, { nullable: true }) revokedReason!: string | null;
  @Field(() => [Renewal]) renewals!: Renewal[];
}

@ObjectType("MonthlyRenewals", { simpleResolvers: true })
export class MonthlyRenewalsView {
  @Field() month!: string;
  @Field(() => Int) count!: number;
  @Field(() => Float) amount!: number;
  @Field() currency!: string;
}

@ArgsType()
export class SubmitRenewalArgs {
  @Field(() => PaymentMethod) paymentMethod!: PaymentMethod;

  @Field(() => String, { nullable: true, description: "A PAYMENT_PROOF file's fileUrl" })
  @IsOptional()
  @Length(1, 2000)
  proofOfPaymentUrl?: string | null;

  @Field(() => String, { nullable: true, description: "Or its id" })
  @IsOptional()
  @Length(1, 200)
  proofFileId?: string | null;
}

@ArgsType()
export class DecideRenewalArgs {
  @Field(() => UUIDResolver, { description: "The renewal's id" }) id!: string;

  @Field(() => RenewalStatus, { description: "VERIFIED or REJECTED" })
  @IsIn([RenewalStatus.VERIFIED, RenewalStatus.REJECTED], {
    message: "status must be VERIFIED or REJECTED",
  })
  status!: RenewalStatus;

  @Field(() => String, { nullable: true, description: "Required when REJECTED; mailed" })
  @IsOptional()
  @MaxLength(2000)
  note?: string | null;
}

@ArgsType()
export class RenewalListArgs extends PageWindowArgs {
  @Field(() => RenewalStatus, { defaultValue: RenewalStatus.SUBMITTED })
  status!: RenewalStatus;
}

@ArgsType()
export class RevokeCredentialsArgs {
  @Field(() => UUIDResolver, { description: "The member record's id" }) id!: string;

  @Field()
  @Length(3, 1000)
  @Matches(/\S/, { message: "reason must not be blank" })
  reason!: string;
}
