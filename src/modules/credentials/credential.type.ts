import { Field, ID, ObjectType } from "type-graphql";
import { DateTimeScalar } from "../../graphql/date-time";
import type { CredentialRecord } from "./credential.model";

@ObjectType("CredentialAsset", {
  simpleResolvers: true,
  description: "The member's rendered credentials; file links are signed and short-lived",
})
export class CredentialAsset {
  @Field({ description: "The public check: APP_URL/profile/<uniqueId>" }) profileUrl!: string;
  @Field({ description: "QR code of profileUrl (PNG)" }) qrCodeUrl!: string;
  @Field(() => String, {
    nullable: true,
    description: "Membership certificate (PDF, A4 landscape); null until the oath",
  })
  certificateUrl!: string | null;
  @Field({ description: "Member ID card (PDF, CR80, front and back)" }) idCardUrl!: string;
  @Field(() => DateTimeScalar, {
    nullable: true,
    description: "The card's end; null before the oath",
  })
  validUntil!: Date | null;
  @Field(() => DateTimeScalar) generatedAt!: Date;
}

@ObjectType("IdGeneration", { simpleResolvers: true, description: "The ID generation step" })
export class IdGeneration {
  @Field(() => String, { nullable: true }) uniqueId!: string | null;
  @Field(() => CredentialAsset, { nullable: true, description: "null until rendered" })
  asset!: CredentialAsset | null;
}

@ObjectType("IdGenerationPayload", { simpleResolvers: true })
export class IdGenerationPayload {
  @Field() code!: string;
  @Field() message!: string;
  @Field(() => IdGeneration, { nullable: true, description: "null without an application" })
  data!: IdGeneration | null;
}

@ObjectType("CredentialExport", {
  simpleResolvers: true,
  description: "Rendered credentials as kept: the files they name are listed with the files",
})
export class CredentialExport {
  @Field(() => ID) memberId!: string;
  @Field() uniqueId!: string;
  @Field(() => ID) qrCodeFileId!: string;
  @Field(() => ID, { nullable: true }) certificateFileId!: string | null;
  @Field(() => ID) idCardFileId!: string;
  @Field(() => DateTimeScalar, { nullable: true }) validUntil!: Date | null;
  @Field(() => DateTimeScalar) generatedAt!: Date;

  static from(record: CredentialRecord): CredentialExport {
    return Object.assign(new CredentialExport(), {
      memberId: record.memberId,
      uniqueId: record.uniqueId,
      qrCodeFileId: record.qrCodeFileId,
      certificateFileId: record.certificateFileId,
      idCardFileId: record.idCardFileId,
      validUntil: record.validUntil ?? null,
      generatedAt: record.generatedAt,
    });
  }
}
