import fs from "node:fs";
import { END, README, START, routeTable, tableIn } from "../../scripts/route-table";
import { buildAppSchema } from "../../src/graphql/schema";
import { restRoutes } from "../../src/graphql/rest-route";

const rowsOf = (table: string) => tableIn(`${START}\n${table}\n${END}`);

describe("the README's route table", () => {
  it("is the one the built schema makes (run `npm run docs:routes` after changing a route)", async () => {
    const schema = await buildAppSchema();
    expect(tableIn(fs.readFileSync(README, "utf8"))).toEqual(rowsOf(routeTable(schema)));
  });

  it("lists every REST path of the schema, each once", async () => {
    const rows = tableIn(fs.readFileSync(README, "utf8"));
    const listed = rows.flatMap(([, rest]) => {
      const match = /^`(GET|POST|PUT|PATCH|DELETE) \/api\/v1([^?`]+)/.exec(rest);
      return match ? [`${match[1]} ${match[2]}`] : [];
    });
    const routes = restRoutes(await buildAppSchema()).map(
      (route) => `${route.method} ${route.path.replace(/:(\w+)/g, "{$1}")}`,
    );
    expect(routes.length).toBeGreaterThan(90);
    for (const route of routes) expect(listed).toContain(route);
    expect(new Set(listed).size).toBe(listed.length);
  });
});
