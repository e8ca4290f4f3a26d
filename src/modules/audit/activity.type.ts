import { Max, Min } from "class-validator";
import { ArgsType, Field, ID, Int, ObjectType } from "type-graphql";
import { DateTimeScalar } from "../../graphql/date-time";
import type { AuditLogRecord } from "./audit-log.model";

/** The groups the client shows, by an action's first part (`member.status` → Members). */
const MODULE_LABELS: Record<string, string> = {
  member: "Members",
  user: "Users",
  office: "Office titles",
  officeHolder: "Office holders",
  branchService: "Branch services",
  export: "Exports",
};

/** "member.publicProfile" → "Member public profile". */
function labelOf(action: string): string {
  const words = action
    .replace(/\./g, " ")
    .replace(/([a-z])([A-Z])/g, "$1 $2")
    .toLowerCase();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/**
 * One of the caller's own audited acts as the organisation's client lists them.
 * Entries keep ids only, so the address and device the client has room for stay null.
 */
@ObjectType("ActivityEntry", { simpleResolvers: true })
export class ActivityEntry {
  @Field(() => ID) id!: string;
  @Field({ description: "The audit action, e.g. member.apply" }) actionType!: string;
  @Field() actionLabel!: string;
  @Field() moduleLabel!: string;
  @Field(() => String, { nullable: true, description: "The kind and id of the record acted on" })
  targetLabel!: string | null;
  @Field() description!: string;
  @Field({ description: "SUCCESS: only acts that succeeded are recorded" }) result!: string;
  @Field(() => DateTimeScalar) timestamp!: Date;
  @Field(() => String, { nullable: true, description: "Not recorded: always null" })
  ipAddress!: string | null;
  @Field(() => String, { nullable: true, description: "Not recorded: always null" })
  deviceLabel!: string | null;

  static from(record: AuditLogRecord): ActivityEntry {
    const label = labelOf(record.action);
    const prefix = record.action.split(".")[0];
    const target = record.targetId ? `${record.targetType} ${record.targetId}` : null;
    return Object.assign(new ActivityEntry(), {
      id: record._id,
      actionType: record.action,
      actionLabel: label,
      moduleLabel: MODULE_LABELS[prefix] ?? labelOf(prefix),
      targetLabel: target,
      description: target ? `${label} (${target})` : label,
      result: "SUCCESS",
      timestamp: record.at,
      ipAddress: null,
      deviceLabel: null,
    });
  }
}

@ObjectType("ActivityList", { simpleResolvers: true })
export class ActivityList {
  @Field() code!: string;
  @Field() message!: string;
  @Field(() => [ActivityEntry], { description: "Newest first" }) data!: ActivityEntry[];
}

@ArgsType()
export class ActivityArgs {
  @Field(() => Int, { defaultValue: 20, description: "How many entries, at most 100" })
  @Min(1)
  @Max(100)
  limit!: number;
}
