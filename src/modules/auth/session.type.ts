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

  @Field({ description: "The same as current (the organisation's client reads this name)" })
  isCurrent!: boolean;

  @Field(() => String, { nullable: true, description: "Where the session signed in from" })
  ipAddress!: string | null;

  @Field(() => DateTimeScalar, { description: "When the session ends unless it is refreshed" })
  expiredAt!: Date;

  static from(summary: SessionSummary, currentSessionId: string): SessionInfo {
    const current = summary._id === currentSessionId;
    return Object.assign(new SessionInfo(), {
      id: summary._id,
      userAgent: summary.userAgent ?? null,
      createdAt: summary.createdAt,
      lastUsedAt: summary.lastUsedAt,
      current,
      isCurrent: current,
      ipAddress: summary.ip ?? null,
      expiredAt: summary.refreshExpiresAt,
    });
  }
}

/** The sessions as the organisation's client reads them (under `data`). */
@ObjectType("SessionOverview", { simpleResolvers: true })
export class SessionOverview {
  @Field(() => SessionInfo, { nullable: true, description: "The session of the token that asked" })
  currentSession!: SessionInfo | null;

  @Field(() => [SessionInfo], { description: "Newest first" })
  sessions!: SessionInfo[];
}

@ObjectType("SessionList", { simpleResolvers: true, description: "The caller's live sessions" })
export class SessionList {
  @Field()
  code!: string;

  @Field()
  message!: string;

  @Field(() => [SessionInfo], { description: "Newest first" })
  sessions!: SessionInfo[];

  @Field(() => SessionOverview, {
    description: "The same sessions, as the client's paths read them",
  })
  data!: SessionOverview;
}
