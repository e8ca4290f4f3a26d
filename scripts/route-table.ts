/**
 * The README's table of REST paths and their GraphQL operations, read off the built schema (and
 * the byte routes' table), so it cannot drift from the service: `npm run docs:routes` rewrites
 * it between its markers, and tests/schema/readme-routes.test.ts fails when it is stale.
 */
import "reflect-metadata";
import fs from "node:fs";
import path from "node:path";
import { getNullableType, isNonNullType, type GraphQLSchema } from "graphql";
import { accessOf } from "../src/graphql/access";
import { restRoutes, type RestRoute } from "../src/graphql/rest-route";
import { buildAppSchema } from "../src/graphql/schema";
import { FILE_ROUTES } from "../src/http/file-route-table";
import { MEMBER_EXPORT_PATH } from "../src/http/member-export";
import { API_BASE } from "../src/http/rest/rest-api";

export const README = path.join(__dirname, "..", "README.md");
export const START = "<!-- routes:start (npm run docs:routes writes this table) -->";
export const END = "<!-- routes:end -->";

/** More arguments than this are shortened to the first required ones and "…". */
const LISTED_ARGUMENTS = 4;

const apiPath = (route: Pick<RestRoute, "path">) =>
  `${API_BASE}${route.path.replace(/:(\w+)/g, "{$1}")}`;

function restCell(route: RestRoute): string {
  const inPath = new Set([...route.path.matchAll(/:(\w+)/g)].map((match) => match[1]));
  const hasBody = ["POST", "PUT", "PATCH"].includes(route.method);
  const queried = hasBody
    ? (route.queryArguments ?? []).map((name) => `${name}=`)
    : route.field.args.filter((arg) => !inPath.has(arg.name)).map((arg) => arg.name);
  const query = queried.length > 0 ? `?${queried.join("&")}` : "";
  const status = route.status === 200 ? "" : ` (${route.status})`;
  const cached = route.publicCache ? " †" : "";
  const alias = route.aliasOf ? `, as ${route.aliasOf.method} ${route.aliasOf.path}` : "";
  return `\`${route.method} ${apiPath(route)}${query}\`${status}${cached}${alias}`;
}

function graphqlCell(route: RestRoute): string {
  const [root, name] = route.operation.split(".");
  const args = route.field.args.map((arg) => ({
    name: arg.name,
    required: isNonNullType(arg.type) && arg.defaultValue === undefined,
  }));
  const listed =
    args.length <= LISTED_ARGUMENTS
      ? args.map((arg) => (arg.required ? arg.name : `${arg.name}?`))
      : [
          ...args
            .filter((arg) => arg.required)
            .slice(0, LISTED_ARGUMENTS - 1)
            .map((arg) => arg.name),
          "…",
        ];
  const kind = root === "Query" ? "query" : "mutation";
  const returns = getNullableType(route.field.type).toString();
  return `\`${kind} ${name}${listed.length > 0 ? `(${listed.join(", ")})` : ""}\`: ${returns}`;
}

function accessCell(route: RestRoute): string {
  const access = accessOf(route.field);
  if (access === "public") return route.optionalBearer ? "public*" : "public";
  if (access === "signed-in") return "signed in";
  return access.join(" or ");
}

const BYTE_ACCESS = {
  bearer: "signed in",
  "bearer-or-link": "signed in or a signed link",
  link: "the one-time link",
  public: "public",
} as const;

/** The table's lines, one per REST path, then the routes outside GraphQL. */
export function routeTable(schema: GraphQLSchema): string {
  const rows = restRoutes(schema).map((route) => [
    route.tag,
    restCell(route),
    graphqlCell(route),
    accessCell(route),
  ]);
  rows.push([
    "Members",
    `\`GET ${API_BASE}${MEMBER_EXPORT_PATH}?search&status&includeArchived\``,
    "(not GraphQL: a CSV download of `members`)",
    "ADMIN",
  ]);
  rows.push(
    [
      "Reports",
      `\`GET ${API_BASE}/reports/{name}?format=csv\``,
      "(not GraphQL: the same report as a CSV download)",
      "ADMIN",
    ],
    ["Reports", "`GET /admin/dashboard`", "(not GraphQL: the page drawing the reports)", "public"],
  );
  for (const route of Object.values(FILE_ROUTES)) {
    rows.push([
      "Files",
      `\`${route.method} ${route.path.replace(/:(\w+)/g, "{$1}")}\``,
      `(not GraphQL: ${route.summary.charAt(0).toLowerCase()}${route.summary.slice(1)})`,
      BYTE_ACCESS[route.access],
    ]);
  }
  const lines = [
    "| group | REST | GraphQL | access |",
    "| --- | --- | --- | --- |",
    ...rows.map((cells) => `| ${cells.map((cell) => cell.replace(/\|/g, "\\|")).join(" | ")} |`),
  ];
  return lines.join("\n");
}

/** The rows of the table in a README, each cell trimmed, however prettier padded them. */
export function tableIn(readme: string): string[][] {
  const region = readme.slice(readme.indexOf(START), readme.indexOf(END));
  return region
    .split("\n")
    .filter((line) => line.startsWith("| ") && !line.startsWith("| ---"))
    .map((line) =>
      line
        .slice(2, -2)
        .split(/ (?<!\\)\| /)
        .map((cell) => cell.trim()),
    );
}

/** The README with its table made anew from `schema`, formatted as prettier keeps it. */
export async function readmeWithRoutes(readme: string, schema: GraphQLSchema): Promise<string> {
  const start = readme.indexOf(START);
  const end = readme.indexOf(END);
  if (start < 0 || end < start) throw new Error(`README.md lacks the markers ${START} … ${END}`);
  const next = `${readme.slice(0, start + START.length)}\n\n${routeTable(schema)}\n\n${readme.slice(end)}`;
  // Loaded here, not at the top: prettier's own loading needs ES modules, which the tests that
  // read the table (and never format) do not run with.
  const prettier = await import("prettier");
  const options = await prettier.resolveConfig(README);
  return prettier.format(next, { ...options, parser: "markdown", filepath: README });
}

if (require.main === module) {
  buildAppSchema()
    .then(async (schema) => {
      fs.writeFileSync(README, await readmeWithRoutes(fs.readFileSync(README, "utf8"), schema));
      console.log(`wrote the route table of ${path.relative(process.cwd(), README)}`);
    })
    .catch((error: unknown) => {
      console.error(error);
      process.exit(1);
    });
}
