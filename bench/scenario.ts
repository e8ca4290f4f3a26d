/**
 * What a scenario of the read suite is, and the helpers to write one. A scenario is a load
 * (load.ts) built against the running service; a new one is a file exporting its scenarios and
 * one line in the registry, bench/scenarios.ts.
 */
import fs from "node:fs";
import path from "node:path";
import { buildOperationNodeForField } from "@graphql-tools/utils";
import { buildSchema, OperationTypeNode, print } from "graphql";
import type { Db } from "mongodb";
import type { LoadSpec } from "./load";

/** What a scenario needs from the running service: tokens and ids read at start (client.ts). */
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
  /** A 1 MiB PDF's signed link on the service, and its storage key (the file floor's path). */
  fileLink: string;
  fileKey: string;
}

export interface Scenario {
  name: string;
  via: "REST" | "GraphQL" | "floor";
  /**
   * Scenarios of one group, next to each other in the registry, take turns and are compared
   * with each other (ratios to the one `via: "floor"`).
   */
  group?: string;
  /** Anonymous public pages run at BenchOptions.publicConnections, the rest at `connections`. */
  audience?: "public";
  /**
   * Writes what the scenario reads beyond the seeded demo data into the target count's
   * database, before its service starts; it must leave a database that has it as it is.
   */
  seed?: (db: Db) => Promise<void>;
  /** The load, made when it is about to run (so it may ask the service first, e.g. an ETag). */
  spec: (session: Session, connections: number) => LoadSpec | Promise<LoadSpec>;
}

/** The concurrency a scenario runs at. */
export const connectionsOf = (
  scenario: Scenario,
  options: { connections: number; publicConnections: number },
): number => (scenario.audience === "public" ? options.publicConnections : options.connections);

export const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

/** GET `path` under /api/v1 (`:officeId` filled in) with the token `token` picks. */
export function rest(path: string, token: (s: Session) => string) {
  return (session: Session, connections: number): LoadSpec => ({
    url: `${session.baseUrl}/api/v1${path.replace(":officeId", session.officeId)}`,
    headers: bearer(token(session)),
    connections,
  });
}

const schema = buildSchema(
  fs.readFileSync(path.join(__dirname, "..", "schema", "schema.graphql"), "utf8"),
);

/**
 * POST /graphql of the root query `field`, selected as Sofa itself selects it for REST (every
 * field of the result, one level of circular references), so both interfaces read the same.
 */
export function graphql(
  field: string,
  variables: (s: Session) => object,
  token: (s: Session) => string,
) {
  const query = print(
    buildOperationNodeForField({
      schema,
      kind: OperationTypeNode.QUERY,
      field,
      circularReferenceDepth: 1,
    }),
  );
  return (session: Session, connections: number): LoadSpec => ({
    url: `${session.baseUrl}/graphql`,
    method: "POST",
    headers: bearer(token(session)),
    body: JSON.stringify({ query, variables: variables(session) }),
    connections,
  });
}

/** The ETag `url` answers with now, for a revalidating (If-None-Match, 304) scenario. */
export async function currentEtag(url: string): Promise<string> {
  const response = await fetch(url);
  const etag = response.headers.get("etag");
  if (response.status !== 200 || !etag) throw new Error(`${url}: ${response.status}, no ETag`);
  return etag;
}
