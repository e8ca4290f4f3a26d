import { Kind, parse, type FragmentDefinitionNode, type OperationDefinitionNode } from "graphql";
import { buildAppSchema } from "../../src/graphql/schema";
import { publicReadFields, publicReadsOf } from "../../src/graphql/public-read-budget";
import { startTestApp, type TestApp } from "../support/test-app";

/**
 * One public-read budget per address for REST and /graphql (issue 53.3): each public root
 * field a document runs, alias by alias, is a point of the bucket REST's public reads draw
 * from. Each test speaks from an address of its own (X-Forwarded-For, TRUST_PROXY=true).
 */

const BUDGET = 20;
const ALIASES = 15;

/** A document reading `count` public pages at once, as a harvester of uniqueIds would. */
function aliasedPublicMembers(count: number): string {
  const fields = Array.from(
    { length: count },
    (_, n) => `m${n}: publicMember(id: "CH-2026-${String(n).padStart(5, "0")}") { code }`,
  );
  return `query Harvest { ${fields.join(" ")} }`;
}

describe("the public-read budget across REST and /graphql", () => {
  let app: TestApp;

  beforeAll(async () => {
    app = await startTestApp({
      RATE_LIMIT_PUBLIC_READS_PER_MINUTE: String(BUDGET),
      TRUST_PROXY: "true",
    });
  });
  afterAll(() => app?.close());

  const rest = (address: string) =>
    app.http().get("/api/v1/branch-service").set("x-forwarded-for", address);
  const graphql = (address: string, query: string) =>
    app
      .http()
      .post("/graphql")
      .set("x-forwarded-for", address)
      .set("content-type", "application/json")
      .send({ query });

  it("answers 429 with Retry-After to a 15-alias document once REST has used the budget", async () => {
    const address = "203.0.113.10";
    for (let n = 0; n < BUDGET; n += 1) expect((await rest(address)).status).toBe(200);
    expect((await rest(address)).status).toBe(429);

    const refused = await graphql(address, aliasedPublicMembers(ALIASES));
    expect(refused.status).toBe(429);
    expect(Number(refused.headers["retry-after"])).toBeGreaterThan(0);
    expect(refused.body.data).toBeUndefined();
    expect(refused.body.errors).toEqual([
      expect.objectContaining({
        message: expect.stringMatching(/^Too many requests, try again in \d+ seconds?$/),
        extensions: expect.objectContaining({ code: "TOO_MANY_REQUESTS", status: 429 }),
      }),
    ]);
  });

  it("counts each aliased public field as one point of the same bucket", async () => {
    const address = "203.0.113.11";
    const document = await graphql(address, aliasedPublicMembers(ALIASES));
    expect(document.status).toBe(200);
    // Answered, not refused (an unknown uniqueId is a 404 inside the document).
    expect(document.body.errors[0].extensions.code).toBe("NOT_FOUND");
    // 15 of the 20 points are gone: five REST reads remain, then 429.
    for (let n = 0; n < BUDGET - ALIASES; n += 1) expect((await rest(address)).status).toBe(200);
    const refused = await rest(address);
    expect(refused.status).toBe(429);
    expect(refused.body.code).toBe("TOO_MANY_REQUESTS");
  });

  it("refuses a document larger than what is left, and runs none of its fields", async () => {
    const address = "203.0.113.12";
    for (let n = 0; n < BUDGET - 3; n += 1) expect((await rest(address)).status).toBe(200);
    const refused = await graphql(address, aliasedPublicMembers(5));
    expect(refused.status).toBe(429);
    expect(refused.body.data).toBeUndefined();
  });

  it("draws nothing for a document without public reads, nor for another address", async () => {
    const address = "203.0.113.13";
    for (let n = 0; n < 5; n += 1) {
      const unsigned = await graphql(address, "{ currentUser { code } }");
      expect(unsigned.status).toBe(200);
      expect(unsigned.body.errors[0].extensions.code).toBe("UNAUTHENTICATED");
    }
    for (let n = 0; n < BUDGET; n += 1) expect((await rest(address)).status).toBe(200);
    expect((await rest("203.0.113.14")).status).toBe(200);
  });
});

describe("which root fields a document counts", () => {
  let publicFields: ReadonlySet<string>;

  beforeAll(async () => {
    publicFields = publicReadFields(await buildAppSchema());
  });

  const count = (source: string, variables?: Record<string, unknown>) => {
    const document = parse(source);
    const operation = document.definitions[0] as OperationDefinitionNode;
    const fragments = new Map<string, FragmentDefinitionNode>();
    for (const d of document.definitions)
      if (d.kind === Kind.FRAGMENT_DEFINITION) fragments.set(d.name.value, d);
    return publicReadsOf(operation, fragments, publicFields, variables);
  };

  it("takes the public reads from the schema's @Rest declarations", () => {
    expect([...publicFields].sort()).toEqual([
      "branchService",
      "branchServices",
      "directoryLocations",
      "publicEvent",
      "publicEvents",
      "publicMember",
      "publicNews",
      "publicNewsPost",
      "serviceChaplains",
    ]);
  });

  it("counts every alias, fragments and inline fragments included, once per response key", () => {
    expect(count("{ a: publicMember(id: 1) { code } b: publicMember(id: 2) { code } }")).toBe(2);
    expect(count("{ a: publicMember(id: 1) { code } a: publicMember(id: 1) { message } }")).toBe(1);
    expect(
      count(
        "query { ...F ... on Query { c: publicMember(id: 3) { code } } } " +
          "fragment F on Query { a: publicMember(id: 1) { code } b: directoryLocations { code } }",
      ),
    ).toBe(3);
    expect(
      count("query ($s: Boolean!) { a: publicMember(id: 1) @skip(if: $s) { code } }", { s: true }),
    ).toBe(0);
    expect(count("{ currentUser { code } members { code } }")).toBe(0);
  });
});
