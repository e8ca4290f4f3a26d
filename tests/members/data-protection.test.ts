/**
 * SSS and TIN numbers are sealed at rest with AES-256-GCM under the deployment's data key,
 * opened only to present a record (every Member response is the owner's or an admin's), and
 * re-sealed by `npm run data-key:rotate` after a key change.
 */
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { loadConfig } from "../../src/config";
import { DataKeyError, FieldCipher, keyIdOf, resolveFieldCipher } from "../../src/db/field-cipher";
import { rotateDataKey } from "../../scripts/rotate-data-key";
import { applyAs, bearer, buildUser, type TestUser } from "../support/factories";
import { startTestApp, type TestApp } from "../support/test-app";
import { rawDb } from "../support/raw-db";
import { startScenario } from "../support/scenario";

const KEY_1 = randomBytes(32);
const KEY_2 = randomBytes(32);
const SSS = "34-7654321-9";
const TIN = "987-654-321-000";

let first: TestApp;
const others: TestApp[] = [];
let admin: TestUser;

beforeAll(async () => {
  ({ app: first, admin } = await startScenario({ env: { DATA_KEY: KEY_1.toString("base64") } }));
});
afterAll(async () => {
  for (const app of others) await app.close();
  await first?.close();
});

/** Another instance on the same database with other keys. */
async function instance(env: Record<string, string>): Promise<TestApp> {
  const app = await startTestApp({ DB_NAME: first.config.dbName, ...env });
  others.push(app);
  return app;
}

const stored = (app: TestApp, id: string) =>
  rawDb(app).members.collection.findOne({ _id: id as never });

async function numbersSeenByAdmin(app: TestApp, lastName: string) {
  const response = await app
    .http()
    .get("/api/v1/members")
    .query({ search: lastName })
    .set(bearer(admin));
  expect(response.status).toBe(200);
  const [record] = response.body.data as { sssNumber: string; tinNumber: string }[];
  return { sssNumber: record.sssNumber, tinNumber: record.tinNumber };
}

it("stores the numbers as ciphertext under the current key and shows them to owner and admin", async () => {
  const owner = await buildUser(first);
  const lastName = `Sealed${randomBytes(3).toString("hex")}`;
  const record = await applyAs(first, owner, { lastName, sssNumber: SSS, tinNumber: TIN });
  expect(record).toMatchObject({ sssNumber: SSS, tinNumber: TIN });

  const raw = await stored(first, record.id);
  expect(raw!.sssNumber).toMatch(new RegExp(`^enc:1:${keyIdOf(KEY_1)}:`));
  expect(raw!.tinNumber).toMatch(new RegExp(`^enc:1:${keyIdOf(KEY_1)}:`));
  const rawText = JSON.stringify(raw);
  for (const digits of ["7654321", "654-321", SSS, TIN]) expect(rawText).not.toContain(digits);

  expect(await numbersSeenByAdmin(first, lastName)).toEqual({ sssNumber: SSS, tinNumber: TIN });
  const own = await first.http().get("/api/v1/members/me").set(bearer(owner));
  expect(own.status).toBe(200);
  expect(own.body.data[0]).toMatchObject({ sssNumber: SSS, tinNumber: TIN });
});

it("rotates: the old key still opens while it is listed, the rotation re-seals, then the new key alone suffices", async () => {
  const owner = await buildUser(first);
  const lastName = `Rotated${randomBytes(3).toString("hex")}`;
  const record = await applyAs(first, owner, { lastName, sssNumber: SSS, tinNumber: null });
  // A value written before encryption existed is sealed by the same pass.
  const legacy = await applyAs(first, await buildUser(first), { lastName: "Legacy" });
  await rawDb(first).members.collection.updateOne(
    { _id: legacy.id as never },
    { $set: { tinNumber: TIN } },
  );

  const during = await instance({
    DATA_KEY: KEY_2.toString("base64"),
    DATA_KEYS_PREVIOUS: KEY_1.toString("hex"),
  });
  expect(await numbersSeenByAdmin(during, lastName)).toEqual({ sssNumber: SSS, tinNumber: null });

  const result = await rotateDataKey(during.connection, during.internals.cipher);
  expect(result.resealed).toBeGreaterThanOrEqual(2);
  expect((await stored(during, record.id))!.sssNumber).toMatch(
    new RegExp(`^enc:1:${keyIdOf(KEY_2)}:`),
  );
  expect((await stored(during, record.id))!.tinNumber).toBeNull();
  expect((await stored(during, legacy.id))!.tinNumber).toMatch(
    new RegExp(`^enc:1:${keyIdOf(KEY_2)}:`),
  );
  expect((await rotateDataKey(during.connection, during.internals.cipher)).resealed).toBe(0);

  const after = await instance({ DATA_KEY: KEY_2.toString("base64") });
  expect(await numbersSeenByAdmin(after, lastName)).toEqual({ sssNumber: SSS, tinNumber: null });
});

describe("the cipher", () => {
  it("refuses a value sealed for another field, tampered with, or under a key it does not have", () => {
    const cipher = new FieldCipher(KEY_1);
    const sealed = cipher.seal(SSS, "sssNumber");
    expect(cipher.open(sealed, "sssNumber")).toBe(SSS);
    expect(() => cipher.open(sealed, "tinNumber")).toThrow(DataKeyError);
    const tampered = sealed.slice(0, -2) + (sealed.endsWith("A") ? "BB" : "AA");
    expect(() => cipher.open(tampered, "sssNumber")).toThrow(DataKeyError);
    expect(() => new FieldCipher(KEY_2).open(sealed, "sssNumber")).toThrow(
      /No configured data key/,
    );
    expect(cipher.seal(SSS, "sssNumber")).not.toBe(sealed);
  });

  it("without DATA_KEY keeps one generated key in the data directory, private to its owner", () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "data-key-"));
    try {
      const sealed = resolveFieldCipher({ dataKeysPrevious: [] }, dir).seal(TIN, "tinNumber");
      expect(resolveFieldCipher({ dataKeysPrevious: [] }, dir).open(sealed, "tinNumber")).toBe(TIN);
      expect(fs.statSync(path.join(dir, "data-key")).mode & 0o777).toBe(0o600);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe("configuration", () => {
  const production = {
    NODE_ENV: "production",
    JWT_SECRET: "x".repeat(40),
    SMTP_URL: "smtp://127.0.0.1:9",
    ALLOW_INSECURE_HTTP: "true",
    MONGODB_URI: "mongodb://db.example.org",
    APP_URL: "https://members.example.org",
    CORS_ORIGINS: "none",
  };

  it("requires DATA_KEY in production and names a malformed one", () => {
    expect(() => loadConfig(production)).toThrow(/DATA_KEY is required when NODE_ENV=production/);
    expect(() => loadConfig({ ...production, DATA_KEY: "too-short" })).toThrow(
      /DATA_KEY must be 32 bytes/,
    );
    expect(() =>
      loadConfig({ ...production, DATA_KEY: KEY_1.toString("base64"), DATA_KEYS_PREVIOUS: "bad" }),
    ).toThrow(/DATA_KEYS_PREVIOUS must be 32 bytes/);
    expect(loadConfig({ ...production, DATA_KEY: KEY_1.toString("hex") }).dataKey).toEqual(KEY_1);
  });
});
