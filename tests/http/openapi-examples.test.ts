/**
 * Every request body example the OpenAPI document gives (what Swagger UI's "Try it out" starts
 * from) fits its own schema: the types, enums, formats and required fields, and no field the
 * operation does not take; and none is a placeholder ("text", an elided id).
 */
import Ajv from "ajv";
import { startTestApp, type TestApp } from "../support/test-app";

type Json = Record<string, unknown>;

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
});
afterAll(() => app.close());

/** Objects that list their properties take no others: an example's stray field is caught. */
function closed(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(closed);
  if (!node || typeof node !== "object") return node;
  const copy = Object.fromEntries(Object.entries(node).map(([key, value]) => [key, closed(value)]));
  if (copy.type === "object" && copy.properties && !("additionalProperties" in copy))
    copy.additionalProperties = false;
  return copy;
}

function placeholdersIn(value: unknown, at = ""): string[] {
  if (Array.isArray(value))
    return value.flatMap((item, index) => placeholdersIn(item, `${at}.${index}`));
  if (value && typeof value === "object")
    return Object.entries(value).flatMap(([key, inner]) => placeholdersIn(inner, `${at}.${key}`));
  return typeof value === "string" && (value === "text" || value.includes("…")) ? [at] : [];
}

it("gives every JSON body an example that its schema accepts, without placeholders", async () => {
  const document = (await app.http().get("/api/v1/openapi.json")).body as {
    paths: Record<string, Record<string, Json>>;
    components: Json;
  };
  const ajv = new Ajv({ allErrors: true, nullable: true });
  // OpenAPI's own formats: the type beside them says all there is to check.
  for (const format of ["int32", "int64", "float", "double", "binary"])
    ajv.addFormat(format, () => true);
  const components = closed(document.components) as Json;
  const problems: string[] = [];
  let checked = 0;
  for (const [path, methods] of Object.entries(document.paths)) {
    for (const [method, operation] of Object.entries(methods)) {
      const body = (operation.requestBody as { content?: Record<string, Json> } | undefined)
        ?.content?.["application/json"];
      if (!body) continue;
      const where = `${method.toUpperCase()} ${path}`;
      if (body.example === undefined) {
        problems.push(`${where}: no example`);
        continue;
      }
      checked += 1;
      // The body's schema refers to #/components: it is checked with the components beside it.
      const validate = ajv.compile({ ...(closed(body.schema) as Json), components });
      if (!validate(body.example)) problems.push(`${where}: ${ajv.errorsText(validate.errors)}`);
      for (const at of placeholdersIn(body.example))
        problems.push(`${where}: placeholder at ${at}`);
    }
  }
  expect(checked).toBeGreaterThan(40);
  expect(problems).toEqual([]);
});
