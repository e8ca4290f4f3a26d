/**
 * Every object type is declared with `simpleResolvers: true`, so that a plain field is a
 * property read instead of a call through type-graphql's per-field wrapper (see
 * "Plain fields" in docs/decisions.md). type-graphql then skips field-level @Authorized and
 * @UseMiddleware on those types without a word, so these tests also make sure there is none:
 * access is decided per root field (src/graphql/access.ts).
 */
import { isObjectType, type GraphQLSchema } from "graphql";
import { getMetadataStorage } from "type-graphql";
import { buildAppSchema } from "../../src/graphql/schema";

let schema: GraphQLSchema;
beforeAll(async () => {
  schema = await buildAppSchema();
});

const storage = getMetadataStorage();
const ROOTS = new Set(["Query", "Mutation", "Subscription"]);

function typeNameOf(target: unknown): string | undefined {
  return storage.objectTypes.find((type) => type.target === target)?.name;
}

describe("object types", () => {
  it("are all declared with simpleResolvers", () => {
    const declared = storage.objectTypes;
    expect(declared.length).toBeGreaterThan(20);
    expect(declared.filter((type) => type.simpleResolvers !== true).map((t) => t.name)).toEqual([]);
  });

  it("give a resolver only to the fields a @FieldResolver computes", () => {
    const computed = storage.fieldResolvers
      .map((field) => `${typeNameOf(field.getObjectType?.())}.${field.schemaName}`)
      .sort();
    const withResolver = Object.values(schema.getTypeMap())
      .filter(isObjectType)
      .filter((type) => !type.name.startsWith("__") && !ROOTS.has(type.name))
      .flatMap((type) =>
        Object.values(type.getFields())
          .filter((field) => field.resolve !== undefined)
          .map((field) => `${type.name}.${field.name}`),
      )
      .sort();
    // Without simpleResolvers every one of the schema's plain fields would be listed here.
    expect(withResolver).toEqual(computed);
  });

  it("declare no field- or class-level @Authorized or @UseMiddleware, which they would skip", () => {
    const objectTargets = new Set(storage.objectTypes.map((type) => type.target));
    const declaredOnObjectTypes = [
      ...storage.authorizedFields,
      ...storage.authorizedResolver,
      ...storage.middlewares,
      ...storage.resolverMiddlewares,
    ]
      .filter((entry) => objectTargets.has(entry.target))
      .map(
        (entry) =>
          `${typeNameOf(entry.target)}.${"fieldName" in entry ? String(entry.fieldName) : "*"}`,
      );
    expect(objectTargets.size).toBeGreaterThan(20);
    expect(declaredOnObjectTypes).toEqual([]);
  });
});
