import { DateTimeScalar } from "../../graphql/date-time";
import { Field, ID, ObjectType } from "type-graphql";
import { PageType } from "../../graphql/envelopes";
import type { AuditLogRecord } from "./audit-log.model";

@ObjectType({
  simpleResolvers: true,
  description: "An administrative act: ids only, no personal data",
})
export class AuditLogEntry {
  @Field(() => ID)
  id!: string;

  @Field(() => DateTimeScalar)
  at!: Date;

  @Field(() => String, { nullable: true, description: "The account that acted" })
  actorId!: string | null;

  @Field(() => String, { nullable: true })
  actorRole!: string | null;

  @Field({ description: "e.g. member.status, office.update, user.delete" })
  action!: string;

  @Field({ description: "member, user, office, officeHolder, branchService" })
  targetType!: string;

  @Field(() => String, { nullable: true })
  targetId!: string | null;

  @Field({ description: "The id the service gave the request, to find it in the logs" })
  requestId!: string;

  @Field(() => String, {
    nullable: true,
    description: "The x-request-id the client sent, if any: the client's word, not the service's",
  })
  clientRequestId!: string | null;

  static from(record: AuditLogRecord): AuditLogEntry {
    return Object.assign(new AuditLogEntry(), {
      id: record._id,
      at: record.at,
      actorId: record.actorId,
      actorRole: record.actorRole,
      action: record.action,
      targetType: record.targetType,
      targetId: record.targetId,
      requestId: record.requestId,
      clientRequestId: record.clientRequestId ?? null,
    });
  }
}

export const AuditLogPage = PageType(AuditLogEntry, "AuditLogPage");
