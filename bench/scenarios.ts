/**
 * The read suite in order; a group's scenarios take turns, so that their ratios share one drift.
 * A new scenario is a file exporting it (as public-events.ts does) and one line below.
 */
import { PUBLIC_EVENT_SCENARIOS } from "./public-events";
import { get, graphql, publicPage, signedInRead, type Scenario } from "./scenario";

const DIRECTORY = "/members/public/directory-locations";
const officeById = graphql("office", (s) => ({ id: s.officeId }));

export const READ_SCENARIOS: Scenario[] = [
  { name: "GET /branch-service", via: "REST", spec: get("/branch-service") },
  { name: "branchServices", via: "GraphQL", spec: graphql("branchServices") },
  ...signedInRead("offices list", "/offices", "offices", graphql("offices")),
  ...signedInRead("office by id", "/offices/:officeId", "office(id)", officeById),
  // The public directory: one $group over APPROVED members, then the tree.
  ...publicPage(DIRECTORY, "directory", [
    `GET ${DIRECTORY}`,
    `GET ${DIRECTORY} (hand-written)`,
    `GET ${DIRECTORY} (If-None-Match, 304)`,
  ]),
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
