import fs from "node:fs";
import path from "node:path";
import { buildOperationNodeForField } from "@graphql-tools/utils";
import { buildSchema, OperationTypeNode, print } from "graphql";
import { ALONE_PATHS, ALONE_QUERY } from "./apollo-alone";
import type { LoadSpec } from "./load";
import { PUBLIC_EVENT_SCENARIOS } from "./public-events";

/** The service's heap cap in the benchmark, as docker-compose.yml sets it. */
export const HEAP_OPTIONS = "--max-old-space-size=256";

/** What a scenario needs from the running service: tokens and ids read at start. */
export interface Session {
  baseUrl: string;
  floorUrl: string;
  adminToken: string;
  memberToken: string;
  /** A demo member's address: sign-ins use it (bcrypt cost 12, as seeded). */
  memberEmail: string;
  officeId: string;
  /** Several surname prefixes, for the search latency target (a different search each time). */
  searchTerms: string[];
  /** The ETag of the public events page, for its revalidating scenario (public-events.ts). */
  eventsEtag?: string;
  /** The ETag of GET /members/public/directory-locations when the session opened. */
  directoryEtag: string;
  /** A 1 MiB PDF's signed link on the service, and its storage key (the file floor's path). */
  fileLink: string;
  fileKey: string;
}

export interface Scenario {
  name: string;
  via: "REST" | "GraphQL" | "floor";
  /** Scenarios with the same group are compared with each other (ratios). */
  group?:
    "offices list" | "office by id" | "Apollo alone" | "directory" | "public events" | "file read";
  /** Anonymous public pages run at BenchOptions.publicConnections, the rest at `connections`. */
  audience?: "public";
  spec: (session: Session, connections: number) => LoadSpec;
}

/** The concurrency a scenario runs at. */
export const connectionsOf = (
  scenario: Scenario,
  options: { connections: number; publicConnections: number },
): number => (scenario.audience === "public" ? options.publicConnections : options.connections);

const schema = buildSchema(
  fs.readFileSync(path.join(__dirname, "..", "schema", "schema.graphql"), "utf8"),
);

/**
 * The GraphQL document Sofa itself builds for a root field (every field of the result, one
 * level of circular references), so both interfaces select exactly the same data.
 */
function documentFor(field: string): string {
  return print(
    buildOperationNodeForField({
      schema,
      kind: OperationTypeNode.QUERY,
      field,
      circularReferenceDepth: 1,
    }),
  );
}

const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

function rest(path: string, token: (s: Session) => string) {
  return (session: Session, connections: number): LoadSpec => ({
    url: `${session.baseUrl}/api/v1${path.replace(":officeId", session.officeId)}`,
    headers: bearer(token(session)),
    connections,
  });
}

function graphql(field: string, variables: (s: Session) => object, token: (s: Session) => string) {
  const query = documentFor(field);
  return (session: Session, connections: number): LoadSpec => ({
    url: `${session.baseUrl}/graphql`,
    method: "POST",
    headers: bearer(token(session)),
    body: JSON.stringify({ query, variables: variables(session) }),
    connections,
  });
}

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
 * (member-reads.ts): on the embedded engine each scans the collection.
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
    spec: (session, connections) => ({
      url: `${session.baseUrl}/api/v1/members/public/directory-locations`,
      headers: { "if-none-match": session.directoryEtag },
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
