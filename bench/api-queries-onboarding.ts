/**
 * The rows of API_QUERIES (bench/api-queries.ts) for the public member pages, onboarding,
 * interviews, credentials, files, events, news and the change stamps' due reads, as their
 * repositories build them (src/modules/<domain>/*.repository.ts, src/db/change-stamps.ts).
 */
import type { ApiQuery } from "./api-queries";

const NEWEST_FIRST = { createdAt: -1, _id: -1 } as const;
const PUBLIC = { status: "eq", archivedAt: "eq" } as const;

/** A findPage: the page and its count (the collection's metadata without a filter). */
function pageAndTotal(
  api: string,
  collection: string,
  filter: ApiQuery["filter"],
  sort: ApiQuery["sort"],
): ApiQuery[] {
  const total: ApiQuery =
    Object.keys(filter).length === 0
      ? { api: `${api} (total)`, collection, command: "metadata count", filter }
      : { api: `${api} (total)`, collection, command: "count", filter };
  return [{ api, collection, command: "page", filter, sort }, total];
}

/** An account's records of one collection: read for its export, deleted by its erasure. */
function ofAccount(collection: string): ApiQuery[] {
  return [
    {
      api: "GET /users/{id}/export: the account's records",
      collection,
      command: "find",
      filter: { userId: "eq" },
    },
    {
      api: "erasure: the account's records",
      collection,
      command: "delete",
      filter: { userId: "eq" },
    },
  ];
}

/** member-public.repository.ts and member-identity.repository.ts. */
function publicMembers(): ApiQuery[] {
  return [
    {
      // An aggregation: this $match, then a $group on the place; the index covers both.
      api: "GET /members/public/directory-locations ($match, then $group per barangay)",
      collection: "members",
      command: "find",
      filter: { ...PUBLIC },
      reads: ["region", "province", "municipalityCity", "barangay"],
    },
    ...pageAndTotal(
      "GET /members/public/service-chaplains",
      "members",
      { memberType: "eq", "publicProfile.listed": "eq", ...PUBLIC },
      { lastName: 1, firstName: 1, _id: 1 },
    ),
    {
      api: "GET /members/public/{uniqueId}",
      collection: "members",
      command: "find",
      filter: { uniqueId: "eq", ...PUBLIC },
    },
    {
      api: "PATCH /members/{id}/status (approval): the record's uniqueId, refused if taken",
      collection: "members",
      command: "unique write",
      filter: { uniqueId: "eq" },
    },
    {
      // Also `uniqueId` absent, which the sparse uniqueId index holds no key for: tested on the
      // documents.
      api: "start: APPROVED records without a uniqueId are given one",
      collection: "members",
      command: "find",
      filter: { status: "eq" },
    },
    {
      api: "a public avatar: is its owner listed",
      collection: "members",
      command: "exists",
      filter: { userId: "eq", "publicProfile.listed": "eq", ...PUBLIC },
    },
    {
      api: "GET /members/public/service-chaplains: the photo a member chose to show",
      collection: "members",
      command: "find",
      filter: { userId: "eq", "publicProfile.showPhoto": "eq", ...PUBLIC },
    },
    {
      api: "PUT /members/current/public-profile: the latest active record",
      collection: "members",
      command: "update",
      filter: { userId: "eq", archivedAt: "eq" },
      sort: NEWEST_FIRST,
    },
    {
      api: "start: the region names in use ($match, then $group per region)",
      collection: "members",
      command: "find",
      filter: { status: "in" },
      reads: ["region"],
    },
    {
      api: "start: one stored region form renamed",
      collection: "members",
      command: "update",
      filter: { status: "in", region: "eq" },
    },
  ];
}

/** requirement, payment, progress and course repositories. */
function onboarding(): ApiQuery[] {
  return [
    {
      api: "GET /members/current/requirements, GET /onboarding, GET /members/{id}",
      collection: "member_requirements",
      command: "find",
      filter: { memberId: "eq" },
    },
    {
      api: "PUT /members/current/requirements, PATCH /members/{id}/requirements/{type}",
      collection: "member_requirements",
      command: "update",
      filter: { memberId: "eq", type: "eq" },
    },
    ...pageAndTotal(
      "GET /requirements/pending",
      "member_requirements",
      { reviewStatus: "eq" },
      { updatedAt: 1, _id: 1 },
    ),
    ...ofAccount("member_requirements"),
    ...pageAndTotal(
      "GET /payments?status=…",
      "membership_payments",
      { status: "eq" },
      { submittedAt: 1, _id: 1 },
    ),
    ...ofAccount("membership_payments"),
    ...ofAccount("onboarding_progress"),
    {
      api: "GET /lessons?course=…, the training pages",
      collection: "lessons",
      command: "find",
      filter: { course: "eq" },
      sort: { order: 1, lessonId: 1 },
    },
    {
      api: "GET /essay-questions, the training pages",
      collection: "essay_questions",
      command: "find",
      filter: {},
      sort: { order: 1, _id: 1 },
    },
  ];
}

/** interview.repository.ts and credential.repository.ts. */
function interviewsAndCredentials(): ApiQuery[] {
  return [
    {
      api: "GET /interviewers, GET /members/current/online-interview: active interviewers",
      collection: "interviewers",
      command: "find",
      filter: { active: "eq" },
      sort: { _id: 1 },
    },
    {
      api: "GET /members/current/online-interview: the slots taken in the offered dates",
      collection: "interviews",
      command: "find",
      filter: { interviewerId: "in", date: "range" },
    },
    {
      api: "GET /members/current/online-interview, GET /onboarding: the member's booking",
      collection: "interviews",
      command: "find",
      filter: { memberId: "eq" },
    },
    {
      api: "PUT /members/current/online-interview (upsert), PATCH /members/{id}/interview",
      collection: "interviews",
      command: "update",
      filter: { memberId: "eq" },
    },
    ...pageAndTotal(
      "GET /interviews?from=…&to=…",
      "interviews",
      { date: "range" },
      {
        date: 1,
        scheduledAt: 1,
        _id: 1,
      },
    ),
    ...pageAndTotal(
      "GET /interviews?interviewerId=…&from=…&to=…",
      "interviews",
      { interviewerId: "eq", date: "range" },
      { date: 1, scheduledAt: 1, _id: 1 },
    ),
    ...ofAccount("interviews"),
    {
      api: "GET /members/current/id-generation, GET /onboarding",
      collection: "credentials",
      command: "find",
      filter: { memberId: "eq" },
    },
    {
      api: "PUT /members/current/id-generation (upsert)",
      collection: "credentials",
      command: "update",
      filter: { memberId: "eq" },
    },
    ...ofAccount("credentials"),
  ];
}

/** file.repository.ts and the orphan sweep. */
function files(): ApiQuery[] {
  return [
    ...pageAndTotal("GET /files", "files", { ownerId: "eq" }, NEWEST_FIRST),
    {
      api: "POST /files: the owner's files against the limit",
      collection: "files",
      command: "count",
      filter: { ownerId: "eq" },
    },
    {
      api: "erasure and GET /users/{id}/export: the owner's files",
      collection: "files",
      command: "find",
      filter: { ownerId: "eq" },
      sort: NEWEST_FIRST,
    },
    {
      api: "orphan sweep: files unnamed since before the cutoff",
      collection: "files",
      command: "find",
      filter: { unnamedSince: "range" },
      sort: { unnamedSince: 1 },
    },
  ];
}

/** GET /events and /events/public: each sortBy, both orders, searched or not. */
function eventLists(): ApiQuery[] {
  return (["startsAt", "createdAt", "nameKey"] as const).flatMap((sortBy) =>
    ([1, -1] as const).flatMap((d) =>
      [false, true].flatMap((publicOnly) =>
        [false, true].flatMap((search) => {
          const filter: ApiQuery["filter"] = {
            ...(publicOnly ? { visibility: "eq" } : {}),
            ...(search ? { searchText: "regex" } : {}),
          };
          const order = d === 1 ? "asc" : "desc";
          const api = `GET /events${publicOnly ? "/public" : ""}?sortBy=${sortBy}&sortOrder=${order}${search ? "&search=…" : ""}`;
          return pageAndTotal(api, "events", filter, { [sortBy]: d, _id: d });
        }),
      ),
    ),
  );
}

/** GET /news-blogs and /news-blogs/public, searched or not; and the change stamps' due reads. */
function newsAndDueReads(): ApiQuery[] {
  return [
    ...[false, true].flatMap((search) => [
      ...pageAndTotal(
        `GET /news-blogs${search ? "?search=…" : ""}`,
        "news_posts",
        search ? { searchText: "regex" } : {},
        NEWEST_FIRST,
      ),
      ...pageAndTotal(
        `GET /news-blogs/public${search ? "?search=…" : ""}`,
        "news_posts",
        { status: "eq", publishedAt: "range", ...(search ? { searchText: "regex" } : {}) },
        { publishedAt: -1, _id: -1 },
      ),
    ]),
    {
      api: "GET /news-blogs/public's version: the newest post published by now",
      collection: "news_posts",
      command: "find",
      filter: { status: "eq", publishedAt: "range" },
      sort: { publishedAt: -1 },
    },
    {
      api: "the office pages' version: the latest running term past its end date",
      collection: "office_holders",
      command: "find",
      filter: { releasedAt: "eq", endDate: "range" },
      sort: { endDate: -1 },
    },
  ];
}

export function onboardingQueries(): ApiQuery[] {
  return [
    ...publicMembers(),
    ...onboarding(),
    ...interviewsAndCredentials(),
    ...files(),
    ...eventLists(),
    ...newsAndDueReads(),
  ];
}
