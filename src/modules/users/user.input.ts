import { IsOptional, Length, Matches, Max, MaxLength, Min } from "class-validator";
import { ArgsType, Field, Int } from "type-graphql";
import { NAME_MAX } from "../auth/auth.input";
import { IsEmailAddress } from "./email";

export const USER_LIST_MAX = 100;

@ArgsType()
export class UpdateCurrentUserArgs {
  @Field(() => String, { nullable: true })
  @IsOptional()
  @Length(1, NAME_MAX)
  @Matches(/\S/, { message: "name must not be blank" })
  name?: string;

  @Field(() => String, {
    nullable: true,
    description: "A new address becomes unverified and gets a verification code",
  })
  @IsOptional()
  @IsEmailAddress()
  email?: string;

  @Field(() => String, {
    nullable: true,
    description:
      "An AVATAR image uploaded to POST /files (its id or fileUrl), or an http(s) image URL; null removes it",
  })
  @IsOptional()
  @MaxLength(2048)
  @Matches(/^(?:https?:\/\/\S+|\/api\/v1\/files\/\S+|[0-9a-fA-F-]{36})$/, {
    message: "avatar must be a file id, a fileUrl of this service or an http(s) URL",
  })
  avatar?: string | null;
}

@ArgsType()
export class UserListArgs {
  @Field(() => Int, { defaultValue: 20, description: `At most ${USER_LIST_MAX}` })
  @Min(1)
  @Max(USER_LIST_MAX)
  limit!: number;

  @Field(() => Int, { defaultValue: 0 })
  @Min(0)
  @Max(100_000_000)
  offset!: number;
}
