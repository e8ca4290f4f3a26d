/**
 * Issue 8, point 5: an application records the applicant's consent to processing, the
 * version of the privacy notice the client showed and the server's time of the application.
 * Optional by default; REQUIRE_PRIVACY_CONSENT=true refuses an application without it.
 */
import type { Response } from "supertest";
import { loadConfig } from "../../src/config";
import {
  applyAs,
  bearer,
  buildUser,
  minimalApplication,
  type TestUser,
} from "../support/factories";
import { startTestApp, type TestApp } from "../support/test-app";
import { rawDb } from "../support/raw-db";
import { startScenario } from "../support/scenario";

const BASE = "/api/v1/members";
const VERSION = "2026-01";

interface StoredConsent {
  noticeVersion: string;
  consentedAt: Date;
}

let app: TestApp;
let strict: TestApp;
let admin: TestUser;

beforeAll(async () => {
  ({ app, admin } = await startScenario());
  strict = await startTestApp({ REQUIRE_PRIVACY_CONSENT: "true" });
});
afterAll(async () => {
  await strict?.close();
  await app?.close();
});

function apply(on: TestApp, user: TestUser, overrides: Record<string, unknown> = {}) {
  return on.http().post(`${BASE}/apply`).set(bearer(user)).send(minimalApplication(overrides));
}

/** The user's records as stored, read around the API. */
const storedOf = (on: TestApp, user: TestUser) =>
  rawDb(on).members.collection.find({ userId: user.id }).toArray();

const pathsOf = (response: Response) =>
  ((response.body.errors ?? []) as { path: string }[]).map((error) => error.path);

function expectValidation(response: Response, path: string): void {
  expect(response.status).toBe(400);
  expect(response.body).toMatchObject({ code: "VALIDATION_ERROR", message: expect.any(String) });
  expect(pathsOf(response)).toContain(path);
}

/** Runs `request` and returns its result with the server-time window it ran in. */
async function timed<T>(
  request: () => Promise<T>,
): Promise<{ result: T; start: number; end: number }> {
  const start = Date.now();
  const result = await request();
  return { result, start, end: Date.now() };
}

function expectWithin(iso: string, start: number, end: number): void {
  expect(iso).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
  const at = Date.parse(iso);
  expect(at).toBeGreaterThanOrEqual(start);
  expect(at).toBeLessThanOrEqual(end);
}

describe("with REQUIRE_PRIVACY_CONSENT unset (optional consent)", () => {
  it("defaults to not required", () => {
    expect(app.config.requirePrivacyConsent).toBe(false);
    expect(strict.config.requirePrivacyConsent).toBe(true);
  });

  it("accepts an application without privacyConsent and shows privacyConsent: null", async () => {
    const user = await buildUser(app);
    const response = await apply(app, user);
    expect(response.status).toBe(201);
    expect(response.body.data.privacyConsent).toBeNull();

    const [stored] = await storedOf(app, user);
    expect(stored.privacyConsent).toBeNull();

    const own = await app.http().get(`${BASE}/me`).set(bearer(user));
    expect(own.status).toBe(200);
    expect(own.body.data).toHaveLength(1);
    expect(own.body.data[0].privacyConsent).toBeNull();
  });

  it("records the notice version and the server's time of the application", async () => {
    const user = await buildUser(app);
    const {
      result: response,
      start,
      end,
    } = await timed(() =>
      apply(app, user, {
        // A client clock is not trusted: whatever it sends besides the version is ignored.
        privacyConsent: { noticeVersion: VERSION, consentedAt: "2001-01-01T00:00:00.000Z" },
      }),
    );
    expect(response.status).toBe(201);
    const consent = response.body.data.privacyConsent as {
      noticeVersion: string;
      consentedAt: string;
    };
    expect(Object.keys(consent).sort()).toEqual(["consentedAt", "noticeVersion"]);
    expect(consent.noticeVersion).toBe(VERSION);
    expectWithin(consent.consentedAt, start, end);
    // One clock for the application and its consent.
    expect(response.body.data.statusHistory[0].at).toBe(consent.consentedAt);

    const list = await app.http().get(BASE).set(bearer(admin)).query({ limit: 100 });
    expect(list.status).toBe(200);
    const listed = (list.body.data as { id: string; privacyConsent: unknown }[]).find(
      (member) => member.id === response.body.data.id,
    );
    expect(listed?.privacyConsent).toEqual(consent);

    const stored = await rawDb(app).members.collection.findOne({
      _id: response.body.data.id as never,
    });
    const storedConsent = stored?.privacyConsent as StoredConsent;
    expect(storedConsent.noticeVersion).toBe(VERSION);
    expect(storedConsent.consentedAt).toBeInstanceOf(Date);
    expect(storedConsent.consentedAt.toISOString()).toBe(consent.consentedAt);
    expect(Object.keys(storedConsent).sort()).toEqual(["consentedAt", "noticeVersion"]);
  });

  it("stores the version trimmed", async () => {
    const user = await buildUser(app);
    const record = await applyAs(app, user, {
      privacyConsent: { noticeVersion: `  ${VERSION}\t` },
    });
    expect(record.privacyConsent).toMatchObject({ noticeVersion: VERSION });
    const [stored] = await storedOf(app, user);
    expect((stored.privacyConsent as StoredConsent).noticeVersion).toBe(VERSION);
  });

  it("accepts a version of exactly 50 characters", async () => {
    const user = await buildUser(app);
    const version = "v".repeat(50);
    const record = await applyAs(app, user, { privacyConsent: { noticeVersion: version } });
    expect(record.privacyConsent).toMatchObject({ noticeVersion: version });
  });

  it("accepts an explicit null as no consent", async () => {
    const user = await buildUser(app);
    const record = await applyAs(app, user, { privacyConsent: null });
    expect(record.privacyConsent).toBeNull();
  });
});

describe("with REQUIRE_PRIVACY_CONSENT=true", () => {
  it.each([
    ["absent", {}],
    ["null", { privacyConsent: null }],
  ])(
    "refuses an application with privacyConsent %s: 400 VALIDATION_ERROR, nothing stored",
    async (_label, overrides) => {
      const user = await buildUser(strict);
      const response = await apply(strict, user, overrides);
      expectValidation(response, "privacyConsent");
      expect(response.body.errors).toEqual([
        { path: "privacyConsent", message: expect.stringMatching(/privacyConsent/) },
      ]);

      const own = await strict.http().get(`${BASE}/me`).set(bearer(user));
      expect(own.status).toBe(200);
      expect(own.body.data).toEqual([]);
      expect(await storedOf(strict, user)).toHaveLength(0);
    },
  );

  it("accepts an application with consent (201) and records it", async () => {
    const user = await buildUser(strict);
    const {
      result: response,
      start,
      end,
    } = await timed(() => apply(strict, user, { privacyConsent: { noticeVersion: VERSION } }));
    expect(response.status).toBe(201);
    expect(response.body.data.privacyConsent.noticeVersion).toBe(VERSION);
    expectWithin(response.body.data.privacyConsent.consentedAt as string, start, end);

    const own = await strict.http().get(`${BASE}/me`).set(bearer(user));
    expect(own.body.data).toHaveLength(1);
    expect(own.body.data[0].privacyConsent).toEqual(response.body.data.privacyConsent);
  });
});

/**
 * Shapes of privacyConsent that must be refused, with the field path the 400 names. A `rule`
 * is class-validator's (GraphQL: HTTP 200, error status 400); a `type` error fails variable
 * coercion (GraphQL: HTTP 400).
 */
interface BadShape {
  label: string;
  consent: unknown;
  path: string;
  failure: "rule" | "type";
  /** GraphQL names a missing field of a top-level variable at the variable itself. */
  graphqlPath?: string;
}
const NESTED = "privacyConsent.noticeVersion";
const BAD_SHAPES: BadShape[] = [
  {
    label: "an empty noticeVersion",
    consent: { noticeVersion: "" },
    path: NESTED,
    failure: "rule",
  },
  {
    label: "a blank noticeVersion",
    consent: { noticeVersion: "   " },
    path: NESTED,
    failure: "rule",
  },
  {
    label: "a 51-character noticeVersion",
    consent: { noticeVersion: "v".repeat(51) },
    path: NESTED,
    failure: "rule",
  },
  {
    label: "a missing noticeVersion",
    consent: {},
    path: NESTED,
    failure: "type",
    graphqlPath: "privacyConsent",
  },
  {
    label: "a null noticeVersion",
    consent: { noticeVersion: null },
    path: NESTED,
    failure: "type",
  },
  {
    label: "a number noticeVersion",
    consent: { noticeVersion: 202601 },
    path: NESTED,
    failure: "type",
  },
  {
    label: "an array noticeVersion",
    consent: { noticeVersion: [VERSION] },
    path: NESTED,
    failure: "type",
  },
  {
    label: "an object noticeVersion",
    consent: { noticeVersion: { v: VERSION } },
    path: NESTED,
    failure: "type",
  },
  { label: "privacyConsent a number", consent: 1, path: "privacyConsent", failure: "type" },
  { label: "privacyConsent a string", consent: VERSION, path: "privacyConsent", failure: "type" },
  { label: "privacyConsent true", consent: true, path: "privacyConsent", failure: "type" },
  {
    label: "privacyConsent an array",
    consent: [{ noticeVersion: VERSION }],
    path: "privacyConsent",
    failure: "type",
  },
];

describe("bad privacyConsent shapes over REST", () => {
  it.each(BAD_SHAPES)("refuses $label with 400 and stores nothing", async ({ consent, path }) => {
    for (const on of [app, strict]) {
      const user = await buildUser(on);
      const response = await apply(on, user, { privacyConsent: consent });
      expect(response.status).toBe(400);
      expect(response.body).toMatchObject({
        code: "VALIDATION_ERROR",
        message: expect.any(String),
      });
      const paths = pathsOf(response);
      expect(paths.length).toBeGreaterThan(0);
      for (const reported of paths) expect(reported.startsWith("privacyConsent")).toBe(true);
      expect(paths).toContain(path);
      expect(await storedOf(on, user)).toHaveLength(0);
    }
  });
});

describe("the same through /graphql", () => {
  const TYPES: Record<string, string> = {
    civilStatus: "CivilStatus!",
    gender: "Gender!",
    dateOfBirth: "DateTimeISO!",
  };
  const fields = Object.keys(minimalApplication());
  const APPLY = `
    mutation Apply(${fields.map((f) => `$${f}: ${TYPES[f] ?? "String!"}`).join(", ")}, $privacyConsent: PrivacyConsentInput) {
      applyForMembership(${fields.map((f) => `${f}: $${f}`).join(", ")}, privacyConsent: $privacyConsent) {
        code
        data { id privacyConsent { noticeVersion consentedAt } statusHistory { at } }
      }
    }`;
  const MINE = `query { myMemberships { data { id privacyConsent { noticeVersion consentedAt } } } }`;

  interface GraphqlBody {
    data?: {
      applyForMembership?: {
        code: string;
        data: {
          id: string;
          privacyConsent: { noticeVersion: string; consentedAt: string } | null;
          statusHistory: { at: string }[];
        };
      } | null;
    } | null;
    errors?: {
      extensions: { code: string; status: number; errors?: { path: string; message: string }[] };
    }[];
  }

  const graphql = (on: TestApp, user: TestUser, query: string, variables: object = {}) =>
    on.http().post("/graphql").set(bearer(user)).send({ query, variables });

  const applyQl = async (on: TestApp, user: TestUser, consent?: unknown) => {
    const variables =
      consent === undefined
        ? minimalApplication()
        : minimalApplication({ privacyConsent: consent });
    const response = await graphql(on, user, APPLY, variables);
    return { status: response.status, body: response.body as GraphqlBody };
  };

  function expectGraphqlValidation(body: GraphqlBody, path: string): void {
    expect(body.errors).toHaveLength(1);
    const extensions = body.errors![0].extensions;
    expect(extensions).toMatchObject({ code: "VALIDATION_ERROR", status: 400 });
    const paths = (extensions.errors ?? []).map((error) => error.path);
    expect(paths.length).toBeGreaterThan(0);
    for (const reported of paths) expect(reported.startsWith("privacyConsent")).toBe(true);
    expect(paths).toContain(path);
  }

  it("optional: null without consent, the version and the server's time with it", async () => {
    const without = await applyQl(app, await buildUser(app));
    expect(without.status).toBe(200);
    expect(without.body.errors).toBeUndefined();
    expect(without.body.data?.applyForMembership?.data.privacyConsent).toBeNull();

    const user = await buildUser(app);
    const { result, start, end } = await timed(() =>
      applyQl(app, user, { noticeVersion: VERSION }),
    );
    expect(result.body.errors).toBeUndefined();
    const payload = result.body.data!.applyForMembership!;
    expect(payload.code).toBe("CREATED");
    expect(payload.data.privacyConsent?.noticeVersion).toBe(VERSION);
    expectWithin(payload.data.privacyConsent!.consentedAt, start, end);
    expect(payload.data.statusHistory[0].at).toBe(payload.data.privacyConsent!.consentedAt);

    const mine = await graphql(app, user, MINE);
    expect(mine.body.data.myMemberships.data).toEqual([
      { id: payload.data.id, privacyConsent: payload.data.privacyConsent },
    ]);
  });

  it("required: refused without consent (VALIDATION_ERROR naming privacyConsent), accepted with it", async () => {
    const user = await buildUser(strict);
    for (const consent of [undefined, null]) {
      const refused = await applyQl(strict, user, consent);
      expect(refused.status).toBe(200);
      expect(refused.body.data).toBeNull();
      expectGraphqlValidation(refused.body, "privacyConsent");
      expect(refused.body.errors![0].extensions.errors).toEqual([
        { path: "privacyConsent", message: expect.stringMatching(/privacyConsent/) },
      ]);
    }
    const mine = await graphql(strict, user, MINE);
    expect(mine.body.data.myMemberships.data).toEqual([]);
    expect(await storedOf(strict, user)).toHaveLength(0);

    const accepted = await applyQl(strict, user, { noticeVersion: VERSION });
    expect(accepted.body.errors).toBeUndefined();
    expect(accepted.body.data?.applyForMembership?.code).toBe("CREATED");
    expect(accepted.body.data?.applyForMembership?.data.privacyConsent?.noticeVersion).toBe(
      VERSION,
    );
  });

  it.each(BAD_SHAPES)(
    "refuses $label as a 400 error and stores nothing",
    async ({ consent, path, failure, graphqlPath }) => {
      const user = await buildUser(app);
      const response = await applyQl(app, user, consent);
      expect(response.status).toBe(failure === "type" ? 400 : 200);
      expect(response.body.data?.applyForMembership ?? null).toBeNull();
      expectGraphqlValidation(response.body, graphqlPath ?? path);
      expect(await storedOf(app, user)).toHaveLength(0);
    },
  );
});

describe("REQUIRE_PRIVACY_CONSENT configuration", () => {
  it("reads true/false like the other switches and defaults to false", () => {
    expect(loadConfig({}).requirePrivacyConsent).toBe(false);
    expect(loadConfig({ REQUIRE_PRIVACY_CONSENT: "true" }).requirePrivacyConsent).toBe(true);
    expect(loadConfig({ REQUIRE_PRIVACY_CONSENT: "1" }).requirePrivacyConsent).toBe(true);
    expect(loadConfig({ REQUIRE_PRIVACY_CONSENT: "false" }).requirePrivacyConsent).toBe(false);
    expect(loadConfig({ REQUIRE_PRIVACY_CONSENT: "" }).requirePrivacyConsent).toBe(false);
  });

  it("refuses any other value, naming the variable", () => {
    expect(() => loadConfig({ REQUIRE_PRIVACY_CONSENT: "maybe" })).toThrow(
      /REQUIRE_PRIVACY_CONSENT must be true or false \(got "maybe"\)/,
    );
  });
});
