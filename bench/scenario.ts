/** What a scenario of the read suite (scenarios.ts) is, and the helpers to write one. */
import fs from "node:fs";
import path from "node:path";
import { buildOperationNodeForField } from "@graphql-tools/utils";
import { buildSchema, OperationTypeNode, print } from "graphql";
import type { Db } from "mongodb";
import type { DevEngine } from "../tools/dev-db/engine";
import type { LoadSpec } from "./load";
import type { BenchOptions } from "./options";
import type { ServiceWithFloor } from "./service-process";

/** What a scenario needs from the running service: tokens and ids read at start (client.ts). */
export interface Session {
  baseUrl: string;
  floorUrl: string;
  adminToken: string;
  memberToken: string;
  /** A demo member's address, for sign-ins (bcrypt cost 12, as seeded). */
  memberEmail: string;
  officeId: string;
  /** Several surname prefixes, so that each search differs. */
  searchTerms: string[];
  /** A 1 MiB PDF's signed link on the service, and its storage key (the file floor's path). */
  fileLink: string;
  fileKey: string;
}

/** One member count's database, its running service and a session on it: what is measured. */
export interface At {
  engine: DevEngine;
  service: ServiceWithFloor;
  session: Session;
  members: number;
  options: BenchOptions;
}

export interface Scenario {
  name: string;
  via: "REST" | "GraphQL" | "floor";
  /** Scenarios of one group, next to each other, take turns; ratios are to its floor. */
  group?: string;
  /** Anonymous public pages run at BenchOptions.publicConnections, the rest at `connections`. */
  audience?: "public";
  /**
   * Writes what the scenario reads beyond the demo data into the target count's database,
   * before its service starts; it must leave a database that has it as it is.
   */
  seed?: (db: Db) => Promise<void>;
  /** The load, made when it is about to run (so it may ask the service first, e.g. an ETag). */
  spec: (session: Session, connections: number) => LoadSpec | Promise<LoadSpec>;
}

export const connectionsOf = (
  scenario: Scenario,
  options: { connections: number; publicConnections: number },
): number => (scenario.audience === "public" ? options.publicConnections : options.connections);

export const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

/** GET `path` (`:officeId` filled in) under /api/v1 or on the floor, as the member or anonymous. */
export function get(path: string, { floor = false, anonymous = false } = {}) {
  return (session: Session, connections: number): LoadSpec => ({
    url: `${floor ? session.floorUrl : `${session.baseUrl}/api/v1`}${path.replace(":officeId", session.officeId)}`,
    ...(anonymous ? {} : { headers: bearer(session.memberToken) }),
    connections,
  });
}

/** An anonymous GET of `path` under /api/v1 with the ETag it has now: every answer a 304. */
export function revalidated(path: string) {
  return async (session: Session, connections: number): Promise<LoadSpec> => {
    const url = `${session.baseUrl}/api/v1${path}`;
    const response = await fetch(url);
    const etag = response.headers.get("etag");
    if (response.status !== 200 || !etag) throw new Error(`${url}: ${response.status}, no ETag`);
    return { url, headers: { "if-none-match": etag }, connections, expectedStatus: 304 };
  };
}

const schema = buildSchema(
  fs.readFileSync(path.join(__dirname, "..", "schema", "schema.graphql"), "utf8"),
);

/**
 * POST /graphql of the root query `field` as the member, selected as Sofa selects it for REST
 * (every field, one level of circular references), so both interfaces read the same.
 */
export function graphql(field: string, variables: (s: Session) => object = () => ({})) {
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
    headers: bearer(session.memberToken),
    body: JSON.stringify({ query, variables: variables(session) }),
    connections,
  });
}
