/**
 * The read suite in order; a group's scenarios take turns, so that their ratios share one drift.
 * A new scenario is a file exporting it (as public-events.ts does) and one line below.
 */
import { ALONE_PATHS, ALONE_QUERY } from "./floor-server";
import type { LoadSpec } from "./load";
import { PUBLIC_EVENT_SCENARIOS } from "./public-events";
import { get, graphql, publicPage, type Scenario, type Session } from "./scenario";

/** Apollo alone and its express counterpart (floor-server.ts): the same body, no sign-in. */
const alone =
  (path: string) =>
  (session: Session, connections: number): LoadSpec => ({
    url: `${session.floorUrl}${path}`,
    method: "POST",
    body: JSON.stringify({ query: ALONE_QUERY, variables: { id: session.officeId } }),
    connections,
  });

const DIRECTORY = "/members/public/directory-locations";
const [offices, office] = [{ group: "offices list" }, { group: "office by id" }];

export const READ_SCENARIOS: Scenario[] = [
  { name: "GET /branch-service", via: "REST", spec: get("/branch-service") },
  { name: "branchServices", via: "GraphQL", spec: graphql("branchServices") },
  { ...offices, name: "GET /offices", via: "REST", spec: get("/offices") },
  { ...offices, name: "offices", via: "GraphQL", spec: graphql("offices") },
  {
    ...offices,
    name: "GET /offices (hand-written)",
    via: "floor",
    spec: get("/offices", { floor: true }),
  },
  { ...office, name: "GET /offices/{id}", via: "REST", spec: get("/offices/:officeId") },
  {
    ...office,
    name: "office(id)",
    via: "GraphQL",
    spec: graphql("office", (s) => ({ id: s.officeId })),
  },
  {
    ...office,
    name: "GET /offices/{id} (hand-written)",
    via: "floor",
    spec: get("/offices/:officeId", { floor: true }),
  },
  // The public directory: one $group over APPROVED members, then the tree.
  ...publicPage(DIRECTORY, "directory", [
    `GET ${DIRECTORY}`,
    `GET ${DIRECTORY} (hand-written)`,
    `GET ${DIRECTORY} (If-None-Match, 304)`,
  ]),
  // No ratio target: what Apollo adds by itself, beside what /graphql adds over the floor.
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
  // headers) against the same bytes from the storage driver (floor-server.ts), within 1.5 ×.
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
    spec: get("/raw-files/:fileKey", { floor: true, anonymous: true }),
  },
];
