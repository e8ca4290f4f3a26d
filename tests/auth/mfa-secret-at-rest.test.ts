/**
 * Issue 35, point 3: TOTP secrets are sealed at rest like SSS and TIN numbers (an earlier
 * version's clear ones sealed at start, all of them re-sealed by data-key:rotate), and what the
 * service and its development engine write to disk is readable by their own user only.
 */
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { generate } from "otplib";
import { rotateDataKey } from "../../scripts/rotate-data-key";
import { keyIdOf } from "../../src/db/field-cipher";
import { bearer, buildUser, TEST_PASSWORD, type TestUser } from "../support/factories";
import { startTestApp, type TestApp } from "../support/test-app";
import { rawDb } from "../support/raw-db";

const KEY_1 = randomBytes(32);
const KEY_2 = randomBytes(32);
const AUTH = "/api/v1/auth";

let app: TestApp;
const others: TestApp[] = [];

beforeAll(async () => {
  app = await startTestApp({ DATA_KEY: KEY_1.toString("base64") });
});
afterAll(async () => {
  for (const other of others) await other.close();
  await app?.close();
});

/** Another instance of the service on the same database (it runs the migrations at start). */
async function instance(env: Record<string, string>): Promise<TestApp> {
  const started = await startTestApp({ DB_NAME: app.config.dbName, ...env });
  others.push(started);
  return started;
}

const stepNow = () => Math.floor(Date.now() / 30_000);
const codeAt = (secret: string, step: number) => generate({ secret, epoch: step * 30 });

/** Sets up and enables MFA for `user`; answers the base32 secret the setup showed. */
async function enableMfa(on: TestApp, user: TestUser): Promise<string> {
  const setup = await on.http().post(`${AUTH}/mfa/setup`).set(bearer(user)).send({});
  expect(setup.status).toBe(200);
  const secret = setup.body.secret as string;
  const enabled = await on
    .http()
    .post(`${AUTH}/mfa/enable`)
    .set(bearer(user))
    .send({ code: await codeAt(secret, stepNow()) });
  expect(enabled.status).toBe(200);
  return secret;
}

/** Signs in with password and a code of `step` (each step works once): the secret still opens. */
async function signInWithMfa(on: TestApp, user: TestUser, secret: string, step: number) {
  const first = await on
    .http()
    .post(`${AUTH}/login`)
    .send({ email: user.email, password: TEST_PASSWORD });
  expect(first.body.mfaRequired).toBe(true);
  const second = await on
    .http()
    .post(`${AUTH}/mfa/verify`)
    .send({ mfaToken: first.body.mfaToken, code: await codeAt(secret, step) });
  expect(second.status).toBe(200);
  expect(second.body.accessToken).toEqual(expect.any(String));
}

const storedSecret = async (on: TestApp, user: TestUser) =>
  (await rawDb(on).users.collection.findOne({ _id: user.id as never }))?.mfaSecret as string | null;

/** Every regular file under `dir`, recursively. */
function filesUnder(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(entry.parentPath, entry.name);
    if (entry.isDirectory()) return filesUnder(full);
    return entry.isFile() ? [full] : [];
  });
}

/** Which files under `dir` hold `text` (as UTF-8 bytes). */
function filesHolding(dir: string, text: string): string[] {
  const needle = Buffer.from(text, "utf8");
  return filesUnder(dir).filter((file) => {
    try {
      return fs.readFileSync(file).includes(needle);
    } catch {
      return false; // a file the engine removed while we looked
    }
  });
}

const modeOf = (file: string) => fs.statSync(file).mode & 0o777;

describe("TOTP secrets at rest", () => {
  it("are sealed: the secret is in no file of the engine's data after enable", async () => {
    const user = await buildUser(app);
    const secret = await enableMfa(app, user);
    expect(await storedSecret(app, user)).toMatch(new RegExp(`^enc:1:${keyIdOf(KEY_1)}:`));
    expect(filesHolding(process.env.TEST_DATA_DIR!, secret)).toEqual([]);
    await signInWithMfa(app, user, secret, stepNow() + 1);
  });

  it("an earlier version's clear secret is sealed when the service starts", async () => {
    const user = await buildUser(app);
    const secret = await enableMfa(app, user);
    // As an earlier version stored it.
    await rawDb(app).users.collection.updateOne(
      { _id: user.id as never },
      { $set: { mfaSecret: secret } },
    );
    const upgraded = await instance({ DATA_KEY: KEY_1.toString("base64") });
    expect(await storedSecret(upgraded, user)).toMatch(/^enc:1:/);
    await signInWithMfa(upgraded, user, secret, stepNow() + 1);
  });

  it("are re-sealed under a new key by data-key:rotate", async () => {
    const user = await buildUser(app);
    const secret = await enableMfa(app, user);
    const during = await instance({
      DATA_KEY: KEY_2.toString("base64"),
      DATA_KEYS_PREVIOUS: KEY_1.toString("base64"),
    });
    await rotateDataKey(during.connection, during.internals.cipher);
    expect(await storedSecret(during, user)).toMatch(new RegExp(`^enc:1:${keyIdOf(KEY_2)}:`));
    const after = await instance({ DATA_KEY: KEY_2.toString("base64") });
    await signInWithMfa(after, user, secret, stepNow() + 1);
  });
});

describe("file modes", () => {
  it("the development engine's folders and files are its user's only", () => {
    const dataDir = process.env.TEST_DATA_DIR!;
    const engineDir = path.join(dataDir, "ferretdb");
    const launcherDir = path.join(dataDir, "dev-db");
    expect(modeOf(dataDir)).toBe(0o700);
    expect(modeOf(engineDir)).toBe(0o700);
    expect(modeOf(launcherDir)).toBe(0o700);
    const files = filesUnder(engineDir);
    expect(files.some((file) => file.endsWith(".sqlite"))).toBe(true);
    for (const file of [...files, ...filesUnder(launcherDir)]) {
      expect({ file, mode: modeOf(file) & 0o077 }).toEqual({ file, mode: 0 });
    }
  });

  it("the generated secrets and the outbox are private, in a private data folder", async () => {
    const parent = fs.mkdtempSync(path.join(os.tmpdir(), "private-data-"));
    const dataDir = path.join(parent, "data");
    try {
      // No JWT_SECRET, DATA_KEY or SMTP_URL: the embedded defaults write all three.
      const local = await startTestApp({ DATA_DIR: dataDir, JWT_SECRET: "", SMTP_URL: "" });
      try {
        await local
          .http()
          .post(`${AUTH}/register`)
          .send({
            name: "Outbox",
            email: `outbox-${randomBytes(3).toString("hex")}@example.org`,
            password: TEST_PASSWORD,
          });
        await local.internals.mailer.flush();
      } finally {
        await local.close();
      }
      expect(modeOf(dataDir)).toBe(0o700);
      expect(modeOf(path.join(dataDir, "jwt-secret"))).toBe(0o600);
      expect(modeOf(path.join(dataDir, "data-key"))).toBe(0o600);
      const outbox = path.join(dataDir, "outbox");
      expect(modeOf(outbox)).toBe(0o700);
      const mails = fs.readdirSync(outbox);
      expect(mails.length).toBeGreaterThan(0);
      for (const mail of mails) expect(modeOf(path.join(outbox, mail))).toBe(0o600);
    } finally {
      fs.rmSync(parent, { recursive: true, force: true });
    }
  });
});
