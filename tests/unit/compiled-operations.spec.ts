import { buildSchema, execute, parse, type ExecutionArgs } from "graphql";
import { CompiledOperations } from "../../src/graphql/compiled-operations";

class Refused extends Error {}

const schema = buildSchema(`
  enum Status { DRAFT PUBLISHED }
  input Filter { status: Status! = DRAFT, tags: [String!]! = [] }
  type Item { id: ID!, status: Status!, tags: [String!]!, when: String }
  type Query { item(id: ID!, filter: Filter!, page: Int! = 1): Item, refused: Item }
`);
const fields = schema.getQueryType()!.getFields();
fields.item.resolve = (
  _root,
  args: { id: string; filter: Record<string, unknown>; page: number },
) => ({
  id: `${args.id}:${args.page}`,
  status: args.filter.status,
  tags: args.filter.tags,
  when: null,
});
fields.refused.resolve = () => {
  throw new Refused("not yours");
};
// The shape Sofa builds for a route: every argument a variable, defaults on the operation.
const document = parse(`
  query item($id: ID!, $filter: Filter!, $page: Int! = 1) {
    item(id: $id, filter: $filter, page: $page) { id status tags when }
  }
`);
const refused = parse(`query refused { refused { id } }`);
const args = (doc: typeof document, variableValues: Record<string, unknown>): ExecutionArgs => ({
  schema,
  document: doc,
  contextValue: {},
  variableValues,
});

describe("compiled operations (a REST route's fixed document)", () => {
  const operations = new CompiledOperations();

  it("answers what graphql-js answers, the operation's and the input type's defaults included", async () => {
    for (const variables of [
      { id: "a", filter: {} },
      { id: "b", filter: { status: "PUBLISHED", tags: ["x"] }, page: 3 },
    ]) {
      const compiled = await operations.execute(args(document, variables));
      expect(compiled).toEqual(await execute(args(document, variables)));
      expect(compiled.data).toBeTruthy();
    }
  });

  it("reports a resolver's error as graphql-js does: its original error, path and extensions", async () => {
    const compiled = await operations.execute(args(refused, {}));
    const interpreted = await execute(args(refused, {}));
    expect(compiled.data).toEqual(interpreted.data);
    const [error] = compiled.errors ?? [];
    expect(error.originalError).toBeInstanceOf(Refused);
    expect(error.path).toEqual(["refused"]);
    expect(error.extensions).toEqual({});
    expect(error.message).toBe(interpreted.errors?.[0].message);
  });
});
