import type { GraphQLFieldResolver, GraphQLSchema } from "graphql";
import { Extensions } from "type-graphql";
import type { RequestContext } from "../../graphql/context";
import type { Caller } from "../auth/caller";
import { entryFor } from "./audit-log.service";

type Args = Record<string, unknown>;

/** How an audited operation is written down. */
export interface AuditRule {
  action: string | ((args: Args) => string);
  targetType: string;
  /**
   * The record acted on (null: none in particular). undefined: this call is not audited (e.g.
   * a self-registration). `caller` is the one before the act: deleting one's account removes it.
   */
  target: (args: Args, result: unknown, caller: Caller | undefined) => string | null | undefined;
}

type AuditDecision = AuditRule | { notAudited: string };

/** Audited: administrative acts and reads of other people's personal data. */
export function Audit(rule: AuditRule): MethodDecorator {
  const audit: AuditDecision = rule;
  return Extensions({ audit });
}

/** Not audited, and why (the caller's own data, the organisation's public structure…). */
export function NotAudited(reason: string): MethodDecorator {
  const audit: AuditDecision = { notAudited: reason };
  return Extensions({ audit });
}

/** The target is the argument of this name. */
export const byArg = (name: string) => (args: Args) => args[name] as string;
/** The target is the record the operation created (its envelope's `data.id`). */
export const createdId = (_args: Args, result: unknown) =>
  (result as { data?: { id?: string } }).data?.id ?? null;
/** No one record: a list. */
export const noTarget = () => null;
/** A list read that was a search is named so; the term itself is personal data, never kept. */
export const listOrSearch = (list: string, search: string) => (args: Args) =>
  typeof args.search === "string" && args.search.trim() !== "" ? search : list;

/**
 * Wraps each audited root field's resolver in the built schema, so /graphql and every REST path
 * (Sofa executes the same schema) append the entry after the act or read succeeded, in one
 * place. A root field without `@Audit` or `@NotAudited` stops the service from starting.
 */
export function auditOperations(schema: GraphQLSchema): void {
  for (const root of [schema.getQueryType(), schema.getMutationType()]) {
    for (const field of Object.values(root?.getFields() ?? {})) {
      const decision = field.extensions.audit as AuditDecision | undefined;
      if (!decision) throw new Error(`${root!.name}.${field.name} has no audit decision`);
      if ("notAudited" in decision || !field.resolve) continue;
      field.resolve = audited(field.resolve, decision);
    }
  }
}

function audited(
  resolve: GraphQLFieldResolver<unknown, RequestContext>,
  rule: AuditRule,
): GraphQLFieldResolver<unknown, RequestContext> {
  return async (source, args: Args, context, info) => {
    const caller = context.caller;
    const result: unknown = await resolve(source, args, context, info);
    const targetId = rule.target(args, result, caller);
    if (targetId !== undefined) {
      await context.services.audit.record(
        entryFor(
          { caller, requestId: context.requestId, clientRequestId: context.clientRequestId },
          {
            action: typeof rule.action === "string" ? rule.action : rule.action(args),
            targetType: rule.targetType,
            targetId,
          },
        ),
      );
    }
    return result;
  };
}
