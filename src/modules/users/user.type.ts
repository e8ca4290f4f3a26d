import { Field, ID, Int, ObjectType, registerEnumType } from "type-graphql";
import { DateTimeScalar } from "../../graphql/date-time";
import { Role } from "./role";
import type { OffsetWindow, PageResult } from "../page-result";
import type { UserRecord } from "./user.model";

/** The public face of an account: never a hash, token or secret. */
/** What the organisation's client shows of an account's standing. */
export enum AccountStatus {
  ACTIVE = "ACTIVE",
}
registerEnumType(AccountStatus, { name: "AccountStatus" });

@ObjectType("User", { simpleResolvers: true })
export class User {
  @Field(() => ID)
  id!: string;

  @Field()
  name!: string;

  @Field()
  email!: string;

  @Field(() => String, { nullable: true })
  avatar!: string | null;

  @Field(() => Role)
  role!: Role;

  @Field(() => DateTimeScalar)
  createdAt!: Date;

  @Field(() => DateTimeScalar, { nullable: true })
  updatedAt!: Date;

  @Field(() => Boolean, { nullable: true })
  isEmailVerified!: boolean;

  @Field({ description: "Whether login asks for a TOTP code" })
  mfaEnabled!: boolean;

  @Field({ description: "The same as mfaEnabled (the organisation's client reads this name)" })
  isTwoFactorEnabled!: boolean;

  @Field(() => AccountStatus, { description: "An account that exists is ACTIVE" })
  accountStatus!: AccountStatus;

  static from(record: UserRecord): User {
    return Object.assign(new User(), {
      id: record._id,
      name: record.name,
      email: record.email,
      avatar: record.avatar ?? null,
      role: record.role,
      createdAt: record.createdAt,
      updatedAt: record.updatedAt,
      isEmailVerified: record.isEmailVerified,
      mfaEnabled: record.mfaEnabled,
      isTwoFactorEnabled: record.mfaEnabled,
      // Erasure deletes an account outright: there is no suspended or closed one to show.
      accountStatus: AccountStatus.ACTIVE,
    });
  }
}

@ObjectType("UserPayload", {
  simpleResolvers: true,
  description: "One account: `{code, message, user}`",
})
export class UserPayload {
  @Field()
  code!: string;

  @Field()
  message!: string;

  @Field(() => User)
  user!: User;

  static of(record: UserRecord, message: string): UserPayload {
    return { code: "OK", message, user: User.from(record) };
  }
}

@ObjectType("UserList", {
  simpleResolvers: true,
  description: "GET /users: offset paging with its own envelope",
})
export class UserList {
  @Field()
  code!: string;

  @Field()
  message!: string;

  @Field(() => Int)
  total!: number;

  @Field(() => Int)
  limit!: number;

  @Field(() => Int)
  offset!: number;

  @Field(() => Int)
  totalPages!: number;

  @Field(() => Int, { description: "floor(offset / limit) + 1" })
  currentPage!: number;

  @Field()
  hasMore!: boolean;

  @Field(() => [User])
  users!: User[];

  static of(result: PageResult<User, OffsetWindow>, message: string): UserList {
    const { offset, limit, total, items } = result;
    return {
      code: "OK",
      message,
      total,
      limit,
      offset,
      totalPages: Math.ceil(total / limit),
      currentPage: Math.floor(offset / limit) + 1,
      hasMore: offset + items.length < total,
      users: items,
    };
  }
}
