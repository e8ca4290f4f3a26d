/**
 * CompiledExecution (src/graphql/compiled-execution.ts) runs documents through graphql-jit
 * from their second execution on. Whatever path a request takes, the result must be what
 * graphql's own executor gives: these cases are the ones where graphql-jit alone differs.
 */
import {
  execute,
  GraphQLError,
  GraphQLInputObjectType,
  GraphQLInt,
  GraphQLList,
  GraphQLNonNull,
  GraphQLObjectType,
  GraphQLSchema,
  GraphQLString,
  parse,
  type ExecutionResult,
} from "graphql";
import { CompiledExecution } from "../../src/graphql/compiled-execution";

class Refusal extends Error {}

const ItemInput = new GraphQLInputObjectType({
  name: "ItemInput",
  fields: {
    label: { type: new GraphQLNonNull(GraphQLString) },
    tags: { type: new GraphQLNonNull(new GraphQLList(GraphQLString)), defaultValue: [] },
  },
});

const schema = new GraphQLSchema({
  query: new GraphQLObjectType({
    name: "Query",
    fields: {
      page: {
        type: GraphQLString,
        args: {
          page: { type: new GraphQLNonNull(GraphQLInt), defaultValue: 1 },
          item: { type: ItemInput },
        },
        resolve: (_root, args: { page: number; item?: { label: string; tags: string[] } }) =>
          `page ${args.page}${args.item ? ` ${args.item.label}:${args.item.tags.length}` : ""}`,
      },
      refused: {
        type: GraphQLString,
        resolve: () => {
          throw new Refusal("not for you");
        },
      },
    },
  }),
});

const PAGE = parse(
  `query Page($page: Int! = 1, $item: ItemInput) { page(page: $page, item: $item) }`,
);
const REFUSED = parse(`query Refused { refused }`);

/** The same execution three times: interpreted, then compiled, then compiled again. */
async function thrice(
  execution: CompiledExecution,
  document: typeof PAGE,
  variableValues: Record<string, unknown>,
): Promise<ExecutionResult[]> {
  const results: ExecutionResult[] = [];
  for (let run = 0; run < 3; run += 1) {
    results.push(await execution.execute({ schema, document, variableValues }));
  }
  return results;
}

const asJson = (value: unknown) => JSON.parse(JSON.stringify(value)) as unknown;

test("documents are compiled from their second execution on", async () => {
  const execution = new CompiledExecution(schema);
  await thrice(execution, PAGE, {});
  expect(execution.compiledDocuments).toBe(1);
});

test.each([
  ["an omitted variable with an operation default", {}],
  ["a given variable", { page: 3 }],
  ["an input object whose list field is left to its default", { item: { label: "a" } }],
  ["an input object with every field", { item: { label: "b", tags: ["x", "y"] } }],
])("%s gives graphql's own result on every run", async (_name, variableValues) => {
  const execution = new CompiledExecution(schema);
  const expected = asJson(await execute({ schema, document: PAGE, variableValues }));
  expect((await thrice(execution, PAGE, variableValues)).map(asJson)).toEqual([
    expected,
    expected,
    expected,
  ]);
});

test("invalid variables are refused with graphql's own messages on every run", async () => {
  const execution = new CompiledExecution(schema);
  const variableValues = { item: { label: 5 } };
  const expected = await execute({ schema, document: PAGE, variableValues });
  expect(expected.errors?.[0].message).toContain('at "item.label"');
  for (const result of await thrice(execution, PAGE, variableValues)) {
    expect(result.errors?.map((error) => error.message)).toEqual(
      expected.errors?.map((error) => error.message),
    );
  }
});

test("resolver errors stay graphql errors carrying the thrown error", async () => {
  const execution = new CompiledExecution(schema);
  for (const result of await thrice(execution, REFUSED, {})) {
    const [error] = result.errors ?? [];
    expect(error).toBeInstanceOf(GraphQLError);
    expect(error.originalError).toBeInstanceOf(Refusal);
    expect(error.extensions).toEqual({});
    expect(error.path).toEqual(["refused"]);
    expect(error.locations).toEqual([{ line: 1, column: 17 }]);
  }
  expect(execution.compiledDocuments).toBe(1);
});
