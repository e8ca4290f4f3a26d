/**
 * The registry of the read suite's scenarios (the type and its helpers: scenario.ts), measured
 * in this order at the target member count. A new scenario is a file exporting its scenarios
 * (as public-events.ts does) and one line below.
 */
import { ALONE_PATHS, ALONE_QUERY } from "./apollo-alone";
import type { LoadSpec } from "./load";
import { PUBLIC_EVENT_SCENARIOS } from "./public-events";
import { bearer, currentEtag, graphql, rest, type Scenario, type Session } from "./scenario";

/** Apollo alone and its express counterpart: the same body to both, no sign-in. */
function alone(path: string) {
  return (session: Session, connections: number): LoadSpec => ({
    url: `${session.floorUrl}${path}`,
    method: "POST",
    body: JSON.stringify({ query: ALONE_QUERY, variables: { id: session.officeId } }),
    connections,
  });
}

const member = (s: Session) => s.memberToken;

/**
 * The reads that compare the interfaces, through REST, GraphQL and the hand-written floor, at
 * the read suite's concurrency. The members of a group take turns, so that their ratios
 * compare loads made under the same conditions. Member reads are measured one at a time
 * (member-reads.ts): on the development engine each scans the collection.
 */
export const READ_SCENARIOS: Scenario[] = [
  { name: "GET /branch-service", via: "REST", spec: rest("/branch-service", member) },
  {
    name: "branchServices",
    via: "GraphQL",
    spec: graphql("branchServices", () => ({}), member),
  },
  {
    name: "GET /offices",
    via: "REST",
    group: "offices list",
    spec: rest("/offices", member),
  },
  {
    name: "offices",
    via: "GraphQL",
    group: "offices list",
    spec: graphql("offices", () => ({}), member),
  },
  {
    name: "GET /offices (hand-written)",
    via: "floor",
    group: "offices list",
    spec: (session, connections) => ({
      url: `${session.floorUrl}/offices`,
      headers: bearer(session.memberToken),
      connections,
    }),
  },
  {
    name: "GET /offices/{id}",
    via: "REST",
    group: "office by id",
    spec: rest("/offices/:officeId", member),
  },
  {
    name: "office(id)",
    via: "GraphQL",
    group: "office by id",
    spec: graphql("office", (s) => ({ id: s.officeId }), member),
  },
  {
    name: "GET /offices/{id} (hand-written)",
    via: "floor",
    group: "office by id",
    spec: (session, connections) => ({
      url: `${session.floorUrl}/offices/${session.officeId}`,
      headers: bearer(session.memberToken),
      connections,
    }),
  },
  // The public directory (no token): one $group over APPROVED members, then the tree.
  {
    name: "GET /members/public/directory-locations",
    via: "REST",
    group: "directory",
    audience: "public",
    spec: (session, connections) => ({
      url: `${session.baseUrl}/api/v1/members/public/directory-locations`,
      connections,
    }),
  },
  {
    name: "GET /members/public/directory-locations (hand-written)",
    via: "floor",
    group: "directory",
    audience: "public",
    spec: (session, connections) => ({
      url: `${session.floorUrl}/members/public/directory-locations`,
      connections,
    }),
  },
  {
    name: "GET /members/public/directory-locations (If-None-Match, 304)",
    via: "REST",
    group: "directory",
    audience: "public",
    spec: async (session, connections) => ({
      url: `${session.baseUrl}/api/v1/members/public/directory-locations`,
      headers: {
        "if-none-match": await currentEtag(
          `${session.baseUrl}/api/v1/members/public/directory-locations`,
        ),
      },
      connections,
      // A revalidation answers 304: counted as answered, anything else as a failure.
      expectedStatus: 304,
    }),
  },
  // No ratio target: what Apollo adds by itself (bench/apollo-alone.ts), to set beside what
  // /graphql adds over the floor.
  {
    name: "POST /alone/express (constant answer)",
    via: "floor",
    group: "Apollo alone",
    spec: alone(ALONE_PATHS.express),
  },
  {
    name: "office(id) through Apollo alone (constant answer)",
    via: "GraphQL",
    group: "Apollo alone",
    spec: alone(ALONE_PATHS.apollo),
  },
  ...PUBLIC_EVENT_SCENARIOS,
  // Issue 39: a 1 MiB file through its signed link (the link check, the record's lookup, the
  // headers) against the same bytes from the storage driver under a plain node handler in the
  // service's process (bench/file-floor.ts). Target: within 1.5 × (≥ 0.67 × the floor's rate).
  {
    name: "GET /files/{id}?expires…&signature… (1 MiB)",
    via: "REST",
    group: "file read",
    spec: (session, connections) => ({ url: session.fileLink, connections }),
  },
  {
    name: "GET /raw-files/{key} (hand-written, the driver alone, 1 MiB)",
    via: "floor",
    group: "file read",
    spec: (session, connections) => ({
      url: `${session.floorUrl}/raw-files/${session.fileKey}`,
      connections,
    }),
  },
];
