import type { GraphQLFieldResolver, GraphQLSchema } from "graphql";
import type { RequestContext } from "../../graphql/context";
import { entryFor } from "./audit-log.service";
import { Role } from "../users/role";

type Args = Record<string, unknown>;

interface AuditRule {
  action: string | ((args: Args) => string);
  targetType: string;
  /** The record acted on; undefined: this call is not audited (e.g. a self-registration). */
  target: (args: Args, result: unknown, context: RequestContext) => string | null | undefined;
}

const byArg = (name: string) => (args: Args) => args[name] as string;
const createdId = (_args: Args, result: unknown) =>
  (result as { data?: { id?: string } }).data?.id ?? null;

/**
 * Every mutation, audited or not, with the reason when not: a new mutation without a decision
 * fails tests/audit/audit-log.test.ts. Audited are administrative acts and acts on members'
 * personal data (issue 8); a caller's own sign-in, token and profile steps are not.
 */
export const AUDITED_MUTATIONS: Record<string, AuditRule | { notAudited: string }> = {
  register: {
    action: "user.create",
    targetType: "user",
    // Self-registration is the person's own act; an administrator creating an account is audited.
    target: (_args, result, context) =>
      context.caller?.role === Role.ADMIN
        ? ((result as { user?: { id?: string } }).user?.id ?? null)
        : undefined,
  },
  login: { notAudited: "the caller's own sign-in (sessions record it)" },
  logout: { notAudited: "the caller's own sign-out" },
  refreshToken: { notAudited: "token rotation" },
  forgotPassword: { notAudited: "self-service, answers the same for any address" },
  resetPassword: { notAudited: "self-service with a mailed token" },
  verifyEmail: { notAudited: "self-service with a mailed code" },
  resendEmailVerification: { notAudited: "self-service" },
  setupMfa: { notAudited: "the caller's own second factor" },
  enableMfa: { notAudited: "the caller's own second factor" },
  verifyMfa: { notAudited: "the second step of the caller's own sign-in" },
  disableMfa: { notAudited: "the caller's own second factor" },
  updateCurrentUser: { notAudited: "the caller's own profile" },
  reauthenticate: { notAudited: "the caller's own password proof" },
  changePassword: { notAudited: "the caller's own password (its sessions record the end)" },
  endSession: { notAudited: "the caller's own sign-out of one session" },
  applyForMembership: { action: "member.apply", targetType: "member", target: createdId },
  updateMemberStatus: { action: "member.status", targetType: "member", target: byArg("id") },
  archiveMember: { action: "member.archive", targetType: "member", target: byArg("id") },
  retrieveMember: { action: "member.retrieve", targetType: "member", target: byArg("id") },
  deleteUser: { action: "user.delete", targetType: "user", target: byArg("userId") },
  deleteCurrentUser: {
    action: "user.delete",
    targetType: "user",
    target: (_args, _result, context) => context.caller?.id ?? null,
  },
  createBranchService: { action: "branch.create", targetType: "branchService", target: createdId },
  updateBranchService: {
    action: "branch.update",
    targetType: "branchService",
    target: byArg("id"),
  },
  deleteBranchService: {
    action: "branch.delete",
    targetType: "branchService",
    target: byArg("id"),
  },
  createOffice: { action: "office.create", targetType: "office", target: createdId },
  updateOffice: { action: "office.update", targetType: "office", target: byArg("id") },
  deleteOffice: { action: "office.delete", targetType: "office", target: byArg("id") },
  appointOfficeHolder: { action: "office.appoint", targetType: "officeHolder", target: createdId },
  endOfficeHolder: { action: "office.end", targetType: "officeHolder", target: byArg("holderId") },
};

/** Whether a list read was a search: the term itself is personal data and is not kept. */
const listOrSearch = (list: string, search: string) => (args: Args) =>
  typeof args.search === "string" && args.search.trim() !== "" ? search : list;

/**
 * Every query, with the same kind of decision (issue 35): an administrator's read of other
 * people's personal data is audited, one entry per read field (not per record returned);
 * a caller's reads of their own data and of the organisation's public structure are not.
 */
export const AUDITED_QUERIES: Record<string, AuditRule | { notAudited: string }> = {
  currentUser: { notAudited: "the caller's own account" },
  currentUserExport: { notAudited: "the caller's own data" },
  myMemberships: { notAudited: "the caller's own applications" },
  sessions: { notAudited: "the caller's own sessions" },
  publicMember: { notAudited: "a public credential check: only what the member's card shows" },
  users: { action: "user.list", targetType: "user", target: () => null },
  user: { action: "user.read", targetType: "user", target: byArg("userId") },
  userExport: { notAudited: "audited in its resolver, with the account it exports" },
  members: {
    action: listOrSearch("member.list", "member.search"),
    targetType: "member",
    target: () => null,
  },
  pendingMembers: {
    action: listOrSearch("member.pending", "member.pendingSearch"),
    targetType: "member",
    target: () => null,
  },
  auditLogs: { notAudited: "entries hold ids only, no personal data" },
  offices: { notAudited: "the organisation's office titles" },
  office: { notAudited: "the organisation's office titles" },
  officeHolders: { notAudited: "who holds an office, shown to every member" },
  memberOffices: { notAudited: "who holds an office, shown to every member" },
  branchServices: { notAudited: "the organisation's branches of service" },
  branchService: { notAudited: "the organisation's branches of service" },
};

/**
 * Wraps each audited operation's resolver in the built schema, so /graphql and every REST path
 * (Sofa executes the same schema) append the entry after the act or read succeeded, in one
 * place. An operation without a decision stops the service from starting.
 */
export function auditOperations(schema: GraphQLSchema): void {
  const roots = [
    ["Mutation", schema.getMutationType(), AUDITED_MUTATIONS],
    ["Query", schema.getQueryType(), AUDITED_QUERIES],
  ] as const;
  for (const [kind, type, rules] of roots) {
    for (const [name, field] of Object.entries(type?.getFields() ?? {})) {
      const rule = rules[name];
      if (!rule) throw new Error(`${kind} ${name} has no audit decision (audited-operations.ts)`);
      if ("notAudited" in rule || !field.resolve) continue;
      field.resolve = audited(field.resolve, rule);
    }
  }
}

function audited(
  resolve: GraphQLFieldResolver<unknown, RequestContext>,
  rule: AuditRule,
): GraphQLFieldResolver<unknown, RequestContext> {
  return async (source, args: Args, context, info) => {
    // The caller is read before the act: deleting one's own account removes it.
    const caller = context.caller;
    const result: unknown = await resolve(source, args, context, info);
    const targetId = rule.target(args, result, { ...context, caller });
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
