import { Field, ID, ObjectType } from "type-graphql";
import { DateTimeISOResolver } from "graphql-scalars";
import { Role } from "./role";
import type { UserRecord } from "./user.model";

/** The public face of an account: never a hash, token or secret. */
@ObjectType("User")
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

  @Field(() => DateTimeISOResolver)
  createdAt!: Date;

  @Field(() => DateTimeISOResolver, { nullable: true })
  updatedAt!: Date;

  @Field(() => Boolean, { nullable: true })
  isEmailVerified!: boolean;

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
    });
  }
}
