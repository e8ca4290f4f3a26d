/** What a scenario of the read suite (scenarios.ts) is, and the helpers to write one. */
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { buildOperationNodeForField } from "@graphql-tools/utils";
import { buildSchema, OperationTypeNode, print, type GraphQLSchema } from "graphql";
import type { Db } from "mongodb";
import { DEMO_PASSWORD } from "../scripts/demo/demo-data";
import type { DevEngine } from "../tools/dev-db/engine";
import type { LoadSpec } from "./load";
import type { BenchOptions } from "./options";
import type { ServiceWithFloor } from "./service-process";

/** What a scenario needs from the running service: tokens and ids read at start. */
export type Session = Awaited<ReturnType<typeof openSession>>;

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

export const connectionsOf = (scenario: Scenario, options: BenchOptions) =>
  scenario.audience === "public" ? options.publicConnections : options.connections;

export const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

/**
 * GET `path` (`:officeId`, `:fileKey` filled in) under /api/v1 or on the floor, as the member
 * unless `admin` or `anonymous`.
 */
export function get(path: string, { floor = false, anonymous = false, admin = false } = {}) {
  return (session: Session, connections: number): LoadSpec => ({
    url:
      (floor ? session.floorUrl : `${session.baseUrl}/api/v1`) +
      path.replace(":officeId", session.officeId).replace(":fileKey", session.fileKey),
    ...(anonymous ? {} : { headers: bearer(admin ? session.adminToken : session.memberToken) }),
    connections,
  });
}

/** An anonymous GET of `path` under /api/v1 with the ETag it has now: every answer a 304. */
function revalidated(path: string) {
  return async (session: Session, connections: number): Promise<LoadSpec> => {
    const url = `${session.baseUrl}/api/v1${path}`;
    const response = await fetch(url);
    const etag = response.headers.get("etag");
    if (response.status !== 200 || !etag) throw new Error(`${url}: ${response.status}, no ETag`);
    return { url, headers: { "if-none-match": etag }, connections, expectedStatus: 304 };
  };
}

/**
 * A public page anonymously through REST and through the floor, and revalidated, named in that
 * order: one group, at the public pages' concurrency.
 */
export function publicPage(
  path: string,
  group: string,
  [rest, floor, revalidation]: string[],
  seed?: Scenario["seed"],
): Scenario[] {
  const common = { group, audience: "public", seed } as const;
  return [
    { ...common, name: rest, via: "REST", spec: get(path, { anonymous: true }) },
    { ...common, name: floor, via: "floor", spec: get(path, { floor: true, anonymous: true }) },
    { ...common, name: revalidation, via: "REST", spec: revalidated(path) },
  ];
}

/**
 * A read as the member through REST, GraphQL (`query`, named `field`) and the floor, each named
 * by `path` with `{id}` for `:officeId`: one group, whose ratios are to its floor.
 */
export function signedInRead(group: string, path: string, field: string, query: Scenario["spec"]) {
  const label = `GET ${path.replace(":officeId", "{id}")}`;
  return [
    { group, name: label, via: "REST", spec: get(path) },
    { group, name: field, via: "GraphQL", spec: query },
    { group, name: `${label} (hand-written)`, via: "floor", spec: get(path, { floor: true }) },
  ] satisfies Scenario[];
}

const schema = buildSchema(
  fs.readFileSync(path.join(__dirname, "..", "schema", "schema.graphql"), "utf8"),
);

/**
 * The root query `field` selected as Sofa selects it for REST (every field, one level of
 * circular references), so both interfaces read the same.
 */
export const selectedAsSofa = (from: GraphQLSchema, field: string) =>
  print(
    buildOperationNodeForField({
      schema: from,
      kind: OperationTypeNode.QUERY,
      field,
      circularReferenceDepth: 1,
    }),
  );

/** POST /graphql of the root query `field` as the member, selected as Sofa selects it. */
export function graphql(field: string, variables: (s: Session) => object = () => ({})) {
  const query = selectedAsSofa(schema, field);
  return (session: Session, connections: number): LoadSpec => ({
    url: `${session.baseUrl}/graphql`,
    method: "POST",
    headers: bearer(session.memberToken),
    body: JSON.stringify({ query, variables: variables(session) }),
    connections,
  });
}

/** A JSON request that must succeed; with a body, a POST. */
async function json<T>(url: string, token?: string, body?: unknown): Promise<T> {
  const response = await fetch(url, {
    method: body === undefined ? "GET" : "POST",
    headers: { "content-type": "application/json", ...(token ? bearer(token) : {}) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const parsed = (await response.json()) as T;
  if (!response.ok) throw new Error(`${url}: ${response.status} ${JSON.stringify(parsed)}`);
  return parsed;
}

export const signIn = async (baseUrl: string, email: string, password: string) =>
  (await json<{ accessToken: string }>(`${baseUrl}/api/v1/auth/login`, "", { email, password }))
    .accessToken;

/** Tokens and ids the scenarios use, read through the API like any client would. */
export async function openSession(service: { url: string; floorUrl: string }) {
  const adminToken = await signIn(service.url, "reviewer@demo.example.org", DEMO_PASSWORD);
  const members = await json<{ data: { user: { email: string }; lastName: string }[] }>(
    `${service.url}/api/v1/members?limit=40&status=APPROVED`,
    adminToken,
  );
  const memberEmail = members.data[0].user.email;
  const memberToken = await signIn(service.url, memberEmail, DEMO_PASSWORD);
  const offices = await json<{ data: { id: string }[] }>(
    `${service.url}/api/v1/offices?limit=1`,
    memberToken,
  );
  return {
    ...(await uploadFile(service.url, adminToken)),
    baseUrl: service.url,
    floorUrl: service.floorUrl,
    adminToken,
    memberToken,
    memberEmail, // for the sign-ins
    officeId: offices.data[0].id,
    // Several surname prefixes, so that each search differs.
    searchTerms: [...new Set(members.data.map((m) => m.lastName.toLowerCase().slice(0, 4)))],
  };
}

export const pdfOf = (sizeMiB: number) =>
  Buffer.concat([Buffer.from("%PDF-1.4\n"), randomBytes(sizeMiB * 1024 * 1024 - 9)]);

/**
 * A 1 MiB PDF (a document of a typical size) uploaded by `token`'s account: its signed link,
 * rendered for its owner so that reading by it writes no audit entry, and its storage key.
 */
async function uploadFile(baseUrl: string, token: string) {
  const form = new FormData();
  form.append("purpose", "REQUIREMENT");
  form.append("file", new Blob([pdfOf(1)], { type: "application/pdf" }), "bench.pdf");
  const response = await fetch(`${baseUrl}/api/v1/files`, {
    method: "POST",
    headers: bearer(token),
    body: form,
  });
  const answer = (await response.json()) as { data: { id: string; fileUrl: string } };
  if (response.status !== 201) throw new Error(`upload: ${JSON.stringify(answer)}`);
  const link = new URL(answer.data.fileUrl, baseUrl);
  return { fileLink: `${baseUrl}${link.pathname}${link.search}`, fileKey: answer.data.id };
}
