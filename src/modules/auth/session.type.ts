import { DateTimeScalar } from "../../graphql/date-time";
import { Field, ID, ObjectType } from "type-graphql";
import type { SessionSummary } from "./session.repository";

@ObjectType("SessionInfo", {
  simpleResolvers: true,
  description: "A live sign-in of the caller (a device or browser)",
})
export class SessionInfo {
  @Field(() => ID)
  id!: string;

  @Field(() => String, { nullable: true })
  userAgent!: string | null;

  @Field(() => DateTimeScalar)
  createdAt!: Date;

  @Field(() => DateTimeScalar, { description: "Updated at most once a minute" })
  lastUsedAt!: Date;

  @Field({ description: "The session of the token that asked" })
  current!: boolean;

  static from(summary: SessionSummary, currentSessionId: string): SessionInfo {
    return Object.assign(new SessionInfo(), {
      id: summary._id,
      userAgent: summary.userAgent ?? null,
      createdAt: summary.createdAt,
      lastUsedAt: summary.lastUsedAt,
      current: summary._id === currentSessionId,
    });
  }
}

@ObjectType("SessionList", { simpleResolvers: true, description: "The caller's live sessions" })
export class SessionList {
  @Field()
  code!: string;

  @Field()
  message!: string;

  @Field(() => [SessionInfo], { description: "Newest first" })
  sessions!: SessionInfo[];
}
