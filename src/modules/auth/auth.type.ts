import { Field, ObjectType } from "type-graphql";
import { User } from "../users/user.type";

@ObjectType("AuthPayload", {
  simpleResolvers: true,
  description:
    "Auth success. `accessToken` is absent when an administrator created the account or when " +
    "`mfaRequired` is true; then `mfaToken` leads to POST /auth/mfa/verify.",
})
export class AuthPayload {
  @Field()
  code!: string;

  @Field()
  message!: string;

  @Field(() => User, { nullable: true, description: "Absent until the MFA step is done" })
  user?: User | null;

  @Field(() => String, { nullable: true })
  accessToken?: string | null;

  @Field()
  mfaRequired!: boolean;

  @Field(() => String, { nullable: true, description: "Valid 5 minutes, for the MFA step" })
  mfaToken?: string | null;
}

@ObjectType("AccessTokenPayload", {
  simpleResolvers: true,
  description: "A new access token (the cookie rotated too)",
})
export class AccessTokenPayload {
  @Field()
  code!: string;

  @Field()
  message!: string;

  @Field()
  accessToken!: string;
}

/** The setup as the organisation's client reads it (under `data`). */
@ObjectType("MfaSetupData", { simpleResolvers: true })
export class MfaSetupData {
  @Field()
  secret!: string;

  @Field()
  otpauthUrl!: string;

  @Field({ description: "The otpauth URL as a PNG QR code, for an <img> (data: URL)" })
  qrCodeDataUrl!: string;
}

@ObjectType("MfaSetupPayload", {
  simpleResolvers: true,
  description: "Add the secret to an authenticator app (the otpauth URI is what a QR code holds)",
})
export class MfaSetupPayload {
  @Field()
  code!: string;

  @Field()
  message!: string;

  @Field()
  secret!: string;

  @Field()
  otpauthUri!: string;

  @Field(() => MfaSetupData, { description: "The same secret, as the client's paths read it" })
  data!: MfaSetupData;
}
