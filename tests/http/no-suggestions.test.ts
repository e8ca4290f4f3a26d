// Raw GraphQL text, not tests/graphql/operations: misspelt documents are its subject.
import { buildAdmin, type TestUser } from "../support/factories";
import { PRODUCTION_ENV, startTestApp, type TestApp } from "../support/test-app";

/**
 * graphql-js words a misspelt enum value with the right one ("Did you mean the enum value
 * …?"). In production no answer carries that hint, REST or /graphql, message or field
 * errors (issue 53.7); outside production the field errors keep it, as a help to developers.
 */

const MISSPELT = "APPROVEDD";
const HINT = /did you mean/i;

async function misspeltEverywhere(app: TestApp, admin: TestUser): Promise<string[]> {
  const rest = await app
    .http()
    .get(`/api/v1/members?status=${MISSPELT}`)
    .set("authorization", `Bearer ${admin.token}`);
  expect(rest.status).toBe(400);
  const variable = await app
    .http()
    .post("/graphql")
    .set("authorization", `Bearer ${admin.token}`)
    .send({
      query: "query ($s: MemberStatus) { members(status: $s) { code } }",
      variables: { s: MISSPELT },
    });
  expect(variable.status).toBe(400);
  const literal = await app
    .http()
    .post("/graphql")
    .set("authorization", `Bearer ${admin.token}`)
    .send({ query: `{ members(status: ${MISSPELT}) { code } }` });
  expect(literal.status).toBe(400);
  return [JSON.stringify(rest.body), JSON.stringify(variable.body), JSON.stringify(literal.body)];
}

describe("enum suggestions", () => {
  it("appear in no production answer, REST or /graphql, message or field error", async () => {
    const app = await startTestApp({ ...PRODUCTION_ENV, GRAPHQL_INTROSPECTION: "true" });
    try {
      const answers = await misspeltEverywhere(app, await buildAdmin(app));
      for (const answer of answers) {
        expect(answer).toContain(`\\"${MISSPELT}\\" does not exist in \\"MemberStatus\\" enum`);
        expect(answer).not.toMatch(HINT);
      }
    } finally {
      await app.close();
    }
  });

  it("stay in REST's field errors outside production", async () => {
    const app = await startTestApp();
    try {
      const [rest] = await misspeltEverywhere(app, await buildAdmin(app));
      expect(rest).toMatch(HINT);
    } finally {
      await app.close();
    }
  });
});
