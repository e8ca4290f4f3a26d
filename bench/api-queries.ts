/**
 * The queries the API sends other than by `_id`, as the repositories (src/modules/<domain>/
 * <domain>.repository.ts) build them: for the capacity plan's table of what `explain` would
 * show on MongoDB. Reads and conditional writes by `_id` (every signed-in request's account
 * and session, a record by id, the `_id $in` reads of a page's accounts and branches) are one
 * row at the end. tests/bench/capacity-plan.test.ts checks that each row is served by a
 * declared index and that every declared index serves some row.
 */
import { onboardingQueries } from "./api-queries-onboarding";
import type { PlannedQuery } from "./query-plan";

export interface ApiQuery extends PlannedQuery {
  /** The route or event that sends it. */
  api: string;
}

const NEWEST_FIRST = { createdAt: -1, _id: -1 } as const;
const AUDIT_NEWEST_FIRST = { at: -1, _id: -1 } as const;

/** GET /members and the export, for each combination of its filters: a page and its count. */
function memberLists(): ApiQuery[] {
  const rows: ApiQuery[] = [];
  for (const includeArchived of [false, true]) {
    for (const status of [false, true]) {
      for (const search of [false, true]) {
        const filter: ApiQuery["filter"] = {
          ...(status ? { status: "eq" } : {}),
          ...(includeArchived ? {} : { archivedAt: "eq" }),
          ...(search ? { searchText: "regex" } : {}),
        };
        const args = [
          includeArchived ? "includeArchived=true" : "",
          status ? "status=…" : "",
          search ? "search=…" : "",
        ].filter(Boolean);
        const api = `GET /members${args.length > 0 ? `?${args.join("&")}` : ""}`;
        rows.push({ api, collection: "members", command: "page", filter, sort: NEWEST_FIRST });
        rows.push(
          Object.keys(filter).length === 0
            ? { api: `${api} (total)`, collection: "members", command: "metadata count", filter }
            : { api: `${api} (total)`, collection: "members", command: "count", filter },
        );
      }
    }
  }
  return rows;
}

/** GET /offices: each sortBy, both orders, with and without a search; and the total. */
function officeLists(): ApiQuery[] {
  const sorts: Record<string, (direction: 1 | -1) => ApiQuery["sort"]> = {
    createdAt: (d) => ({ createdAt: d, _id: d }),
    updatedAt: (d) => ({ updatedAt: d, _id: d }),
    "name, title": (d) => ({ nameKey: d }),
    level: (d) => ({ levelRank: d, nameKey: 1 }),
  };
  return Object.entries(sorts).flatMap(([sortBy, sort]) =>
    ([-1, 1] as const).flatMap((direction) =>
      [false, true].map((search): ApiQuery => ({
        api: `GET /offices?sortBy=${sortBy}&sortOrder=${direction === 1 ? "asc" : "desc"}${search ? "&search=…" : ""}`,
        collection: "offices",
        command: "page",
        filter: search ? { searchText: "regex" } : {},
        sort: sort(direction),
      })),
    ),
  );
}

/** GET /offices/{id}/holders and GET /members/{id}/offices, current or all, searched or not. */
function holderLists(): ApiQuery[] {
  return (["officeId", "memberId"] as const).flatMap((owner) =>
    [false, true].flatMap((includeEnded) =>
      [false, true].flatMap((search): ApiQuery[] => {
        const filter: ApiQuery["filter"] = {
          [owner]: "eq",
          ...(includeEnded ? {} : { releasedAt: "eq" }),
          ...(search ? { name: "regex" } : {}),
        };
        const path = owner === "officeId" ? "/offices/{id}/holders" : "/members/{id}/offices";
        const args = [includeEnded ? "includeEnded=true" : "", search ? "search=…" : ""];
        const query = args.filter(Boolean).join("&");
        const api = `GET ${path}${query ? `?${query}` : ""}`;
        return [
          { api, collection: "office_holders", command: "page", filter, sort: NEWEST_FIRST },
          { api: `${api} (total)`, collection: "office_holders", command: "count", filter },
        ];
      }),
    ),
  );
}

export const API_QUERIES: readonly ApiQuery[] = [
  ...memberLists(),
  {
    api: "GET /members/me",
    collection: "members",
    command: "page",
    filter: { userId: "eq" },
    sort: NEWEST_FIRST,
  },
  {
    api: "GET /members/me (total)",
    collection: "members",
    command: "count",
    filter: { userId: "eq" },
  },
  {
    api: "an account's records (email change, erasure, data export)",
    collection: "members",
    command: "find",
    filter: { userId: "eq" },
    sort: NEWEST_FIRST,
  },
  {
    api: "POST /members/apply, decisions, archive, retrieve: one open application per person",
    collection: "members",
    command: "unique write",
    filter: { openKey: "eq" },
  },
  {
    api: "User.memberProfile: the latest application of each account of an answer",
    collection: "members",
    command: "find",
    filter: { userId: "in" },
  },
  // An administrator's page of members: its possible duplicates, one $or whose branches are these.
  ...(["nameBirthKey", "mobileKey", "sssHash", "tinHash"] as const).map((key): ApiQuery => ({
    api: `GET /members, /members/pending: possible duplicates by ${key}`,
    collection: "members",
    command: "find",
    filter: { [key]: "in" },
  })),
  {
    api: "DELETE /branch-service/{id}: is the branch still named by a record",
    collection: "members",
    command: "exists",
    filter: { preferredBranchIds: "eq" },
  },
  {
    api: "GET /users",
    collection: "users",
    command: "page",
    filter: { deletingSince: "eq" },
    sort: NEWEST_FIRST,
  },
  { api: "GET /users (all accounts)", collection: "users", command: "metadata count", filter: {} },
  {
    api: "GET /users (accounts being erased, left out of the total)",
    collection: "users",
    command: "count",
    filter: { deletingSince: "range" },
  },
  {
    api: "POST /auth/login, registration, email change",
    collection: "users",
    command: "find",
    filter: { email: "eq" },
  },
  {
    api: "POST /auth/verify-email",
    collection: "users",
    command: "update",
    filter: { verificationCodeHash: "eq", verificationExpiresAt: "range" },
  },
  {
    api: "POST /auth/reset-password",
    collection: "users",
    command: "update",
    filter: { resetTokenHash: "eq", resetExpiresAt: "range" },
  },
  ...(["mfaSecret", "mfaPendingSecret"] as const).map((field): ApiQuery => ({
    api: `start: ${field} an earlier version stored in clear, to be sealed`,
    collection: "users",
    command: "find",
    filter: { [field]: "range" },
  })),
  {
    api: "DELETE /users/{id}: does an administrator remain",
    collection: "users",
    command: "exists",
    filter: { role: "eq", deletingSince: "eq" },
  },
  {
    api: "GET /users/current/export, sign out everywhere",
    collection: "sessions",
    command: "find",
    filter: { userId: "eq" },
    sort: NEWEST_FIRST,
  },
  {
    api: "GET /auth/sessions",
    collection: "sessions",
    command: "find",
    filter: { userId: "eq", revokedAt: "eq", refreshExpiresAt: "range" },
    sort: NEWEST_FIRST,
  },
  {
    api: "POST /auth/change-password: end the account's other sessions",
    collection: "sessions",
    command: "update",
    filter: { userId: "eq", revokedAt: "eq", _id: "range" },
  },
  {
    api: "sessions past their end (TTL monitor)",
    collection: "sessions",
    command: "delete",
    filter: { expiresAt: "range" },
  },
  {
    api: "GET /audit-logs",
    collection: "audit_logs",
    command: "page",
    filter: {},
    sort: AUDIT_NEWEST_FIRST,
  },
  ...(["actorId", "targetId", "action"] as const).flatMap((field): ApiQuery[] => [
    {
      api: `GET /audit-logs?${field}=…&from=…&to=…`,
      collection: "audit_logs",
      command: "page",
      filter: { [field]: "eq", at: "range" },
      sort: AUDIT_NEWEST_FIRST,
    },
    {
      api: `GET /audit-logs?${field}=… (total)`,
      collection: "audit_logs",
      command: "count",
      filter: { [field]: "eq" },
    },
  ]),
  {
    api: "GET /audit-logs?from=…&to=… (total)",
    collection: "audit_logs",
    command: "count",
    filter: { at: "range" },
  },
  {
    api: "GET /users/{id}/export: entries by or about the person",
    collection: "audit_logs",
    command: "find",
    filter: { actorId: "in" },
  },
  {
    api: "GET /users/{id}/export: entries about the person",
    collection: "audit_logs",
    command: "find",
    filter: { targetId: "in" },
  },
  ...officeLists(),
  { api: "GET /offices (total)", collection: "offices", command: "metadata count", filter: {} },
  {
    api: "GET /offices?search=… (total)",
    collection: "offices",
    command: "count",
    filter: { searchText: "regex" },
  },
  {
    api: "POST, PATCH /offices: one title per name",
    collection: "offices",
    command: "unique write",
    filter: { nameKey: "eq" },
  },
  ...holderLists(),
  {
    api: "POST /offices/{id}/holders: one appointment per member and slot",
    collection: "office_holders",
    command: "find",
    filter: { slotKey: "eq" },
  },
  {
    api: "every office read: terms past their end date are released",
    collection: "office_holders",
    command: "find",
    filter: { releasedAt: "eq", endDate: "range" },
  },
  {
    api: "slot recount: the office's counting terms",
    collection: "office_holders",
    command: "count",
    filter: { officeId: "eq", releasedAt: "eq" },
  },
  {
    api: "slot recount: terms released since the count last changed",
    collection: "office_holders",
    command: "count",
    filter: { officeId: "eq", releasedAt: "range" },
  },
  {
    api: "erasure and data export: an account's appointments",
    collection: "office_holders",
    command: "find",
    filter: { userId: "eq" },
    sort: NEWEST_FIRST,
  },
  {
    api: "erasure: the account's running terms are ended first",
    collection: "office_holders",
    command: "find",
    filter: { userId: "eq", releasedAt: "eq" },
  },
  {
    api: "DELETE /offices/{id}: its appointments",
    collection: "office_holders",
    command: "delete",
    filter: { officeId: "eq" },
  },
  {
    api: "GET /branch-service",
    collection: "branch_services",
    command: "page",
    filter: {},
    sort: NEWEST_FIRST,
  },
  {
    api: "GET /branch-service?search=…",
    collection: "branch_services",
    command: "page",
    filter: { searchText: "regex" },
    sort: NEWEST_FIRST,
  },
  {
    api: "GET /branch-service (total)",
    collection: "branch_services",
    command: "metadata count",
    filter: {},
  },
  {
    api: "GET /branch-service?search=… (total)",
    collection: "branch_services",
    command: "count",
    filter: { searchText: "regex" },
  },
  {
    api: "POST, PATCH /branch-service: one branch per title",
    collection: "branch_services",
    command: "unique write",
    filter: { titleKey: "eq" },
  },
  ...onboardingQueries(),
];
