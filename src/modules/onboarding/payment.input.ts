import { IsBoolean, IsIn, IsOptional, Length, MaxLength } from "class-validator";
import { UUIDResolver } from "graphql-scalars";
import { ArgsType, Field } from "type-graphql";
import { PageArgs } from "../../graphql/paging";
import { PaymentMethod, PaymentStatus } from "./payment.model";

@ArgsType()
export class SavePaymentArgs {
  @Field(() => PaymentMethod)
  paymentMethod!: PaymentMethod;

  @Field(() => String, { nullable: true, description: "A PAYMENT_PROOF file's fileUrl" })
  @IsOptional()
  @Length(1, 2000)
  proofOfPaymentUrl?: string | null;

  @Field(() => String, { nullable: true, description: "Or its id" })
  @IsOptional()
  @Length(1, 200)
  proofFileId?: string | null;

  @Field(() => Boolean, { nullable: true, defaultValue: false })
  @IsOptional()
  @IsBoolean()
  isPromissoryNote?: boolean;

  @Field(() => String, { nullable: true, description: "A PROMISSORY_NOTE file's fileUrl" })
  @IsOptional()
  @Length(1, 2000)
  promissoryNoteUrl?: string | null;

  @Field(() => String, { nullable: true, description: "Or its id" })
  @IsOptional()
  @Length(1, 200)
  promissoryNoteFileId?: string | null;
}

@ArgsType()
export class DecidePaymentArgs {
  @Field(() => UUIDResolver, { description: "The member record's id" })
  id!: string;

  @Field(() => PaymentStatus, { description: "VERIFIED or REJECTED" })
  @IsIn([PaymentStatus.VERIFIED, PaymentStatus.REJECTED], {
    message: "status must be VERIFIED or REJECTED",
  })
  status!: PaymentStatus;

  @Field(() => String, {
    nullable: true,
    description: "Required when REJECTED; mailed to the member",
  })
  @IsOptional()
  @MaxLength(2000)
  note?: string;
}

@ArgsType()
export class PaymentListArgs extends PageArgs {
  @Field(() => PaymentStatus, { defaultValue: PaymentStatus.SUBMITTED })
  status!: PaymentStatus;
}
