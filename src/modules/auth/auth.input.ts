import { IsOptional, Length, Matches, MaxLength, ValidateIf } from "class-validator";
import { ArgsType, Field } from "type-graphql";
import { IsEmailAddress } from "../users/email";
import { Role } from "../users/role";
import { IsStrongPassword, SameAs } from "./password-policy";

/** Generous bounds on what is only compared, so nobody can make us hash a megabyte. */
const SECRET_INPUT_MAX = 1024;
export const NAME_MAX = 100;
const TOTP_CODE = /^\d{6}$/;
const TOTP_MESSAGE = "code must be the 6 digits your authenticator app shows";

@ArgsType()
export class RegisterArgs {
  @Field()
  @Length(1, NAME_MAX)
  @Matches(/\S/, { message: "name must not be blank" })
  name!: string;

  @Field({ description: "Trimmed and lower-cased before storage" })
  @IsEmailAddress()
  email!: string;

  @Field({ description: "8-72 bytes with an uppercase letter, a digit and a special character" })
  @IsStrongPassword()
  password!: string;

  @Field(() => Role, {
    nullable: true,
    description: "MEMBER unless the caller is an administrator (OFFICER/ADMIN need one)",
  })
  @IsOptional()
  role?: Role | null;
}

@ArgsType()
export class LoginArgs {
  @Field()
  @MaxLength(SECRET_INPUT_MAX)
  email!: string;

  @Field()
  @MaxLength(SECRET_INPUT_MAX)
  password!: string;

  @Field(() => String, {
    nullable: true,
    description: "Shown in the session list; the User-Agent header when absent",
  })
  @IsOptional()
  @MaxLength(500)
  userAgent?: string | null;
}

@ArgsType()
export class EmailArgs {
  @Field()
  @IsEmailAddress()
  email!: string;
}

@ArgsType()
export class ResetPasswordArgs {
  @Field({ description: "The token from the reset mail (REST: the `token` query parameter)" })
  @Length(1, SECRET_INPUT_MAX)
  token!: string;

  @Field()
  @IsStrongPassword()
  password!: string;

  @Field()
  @SameAs("password")
  confirmPassword!: string;
}

@ArgsType()
export class VerifyEmailArgs {
  @Field({ description: "The 8-character code from the verification mail" })
  @Length(1, 64)
  code!: string;
}

@ArgsType()
export class MfaCodeArgs {
  @Field(() => String, { nullable: true, description: "The authenticator's code (or as token)" })
  @ValidateIf((args: MfaCodeArgs) => !args.token)
  @Matches(TOTP_CODE, { message: TOTP_MESSAGE })
  code?: string | null;

  @Field(() => String, { nullable: true, description: "The client's name for code" })
  @IsOptional()
  @Matches(TOTP_CODE, { message: TOTP_MESSAGE })
  token?: string | null;
}

@ArgsType()
export class VerifyMfaArgs {
  @Field({ description: "From the login response that said mfaRequired" })
  @Length(1, 4096)
  mfaToken!: string;

  @Field()
  @Matches(TOTP_CODE, { message: TOTP_MESSAGE })
  code!: string;
}

@ArgsType()
export class DisableMfaArgs {
  @Field(() => String, { nullable: true, description: "With the password; both or neither" })
  @IsOptional()
  @Matches(TOTP_CODE, { message: TOTP_MESSAGE })
  code?: string | null;

  @Field(() => String, { nullable: true, description: "With the code; both or neither" })
  @IsOptional()
  @Length(1, SECRET_INPUT_MAX)
  password?: string | null;
}

@ArgsType()
export class ReauthenticateArgs {
  @Field()
  @Length(1, SECRET_INPUT_MAX)
  password!: string;

  @Field(() => String, { nullable: true, description: "Required when the account has MFA" })
  @IsOptional()
  @Matches(TOTP_CODE, { message: TOTP_MESSAGE })
  code?: string | null;
}

@ArgsType()
export class ChangePasswordArgs {
  @Field(() => String, { nullable: true, description: "The password now (or as oldPassword)" })
  @ValidateIf((args: ChangePasswordArgs) => !args.oldPassword)
  @Length(1, SECRET_INPUT_MAX, { message: "currentPassword is required" })
  currentPassword?: string | null;

  @Field(() => String, { nullable: true, description: "The client's name for currentPassword" })
  @IsOptional()
  @Length(1, SECRET_INPUT_MAX)
  oldPassword?: string | null;

  @Field({ description: "8-72 bytes with an uppercase letter, a digit and a special character" })
  @IsStrongPassword()
  password!: string;

  @Field()
  @SameAs("password")
  confirmPassword!: string;
}
