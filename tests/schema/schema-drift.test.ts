import fs from "node:fs";
import path from "node:path";
import { printSchema } from "graphql";
import { buildAppSchema } from "../../src/graphql/schema";
import { restRoutes } from "../../src/graphql/rest-route";

describe("schema/schema.graphql", () => {
  it("matches the code-first schema (run `npm run schema:emit` after changing it)", async () => {
    const emitted = fs.readFileSync(
      path.join(__dirname, "..", "..", "schema", "schema.graphql"),
      "utf8",
    );
    expect(emitted).toBe(`${printSchema(await buildAppSchema())}\n`);
  });

  it("has a REST route for every Query and Mutation field, and no route without one", async () => {
    const schema = await buildAppSchema();
    const fields = [
      ...Object.keys(schema.getQueryType()?.getFields() ?? {}).map((f) => `Query.${f}`),
      ...Object.keys(schema.getMutationType()?.getFields() ?? {}).map((f) => `Mutation.${f}`),
    ];
    // An alias (the web client's name for a path) reaches the same operation: count each once.
    const routed = new Set(restRoutes(schema).map((r) => r.operation));
    expect([...routed].sort()).toEqual(fields.sort());
  });
});
