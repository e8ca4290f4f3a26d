/**
 * Issue 35, point 4: after an account is erased, nothing under DATA_DIR holds its name or any
 * address it ever had: not the mail kept in the outbox (sent to former addresses too), not the
 * development engine's files (free pages, the write-ahead log), read as bytes. The service and a
 * FerretDB engine of this file's own share one fresh DATA_DIR, as `npm start` runs them.
 */
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { startEngine, type DevEngine as Engine } from "../../tools/dev-db/engine";
import {
  bearer,
  loginBootstrapAdmin,
  minimalApplication,
  TEST_PASSWORD,
} from "../support/factories";
import { startTestApp, type TestApp } from "../support/test-app";

const API = "/api/v1";
let dataDir: string;
let engine: Engine;
let app: TestApp;

beforeAll(async () => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "erasure-files-"));
  engine = await startEngine({ dataDir, log: () => undefined });
  // No SMTP: mail is kept in DATA_DIR/outbox.
  app = await startTestApp({ SMTP_URL: "", DATA_DIR: dataDir }, engine.uri);
}, 60_000);
afterAll(async () => {
  await app?.close();
  await engine?.stop();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

/** Lets the work started after an answer (mail) finish. */
async function settle(): Promise<void> {
  await app.internals.background.drain();
  await app.internals.mailer.flush();
}

function filesUnder(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(entry.parentPath, entry.name);
    if (entry.isDirectory()) return filesUnder(full);
    return entry.isFile() ? [full] : [];
  });
}

/** `file: trace` for each trace found in a file under DATA_DIR (bytes, case-insensitive). */
function tracesUnderDataDir(traces: string[]): string[] {
  const found: string[] = [];
  for (const file of filesUnder(dataDir)) {
    let bytes: Buffer;
    try {
      bytes = fs.readFileSync(file);
    } catch {
      continue; // removed while we looked
    }
    const text = bytes.toString("latin1").toLowerCase();
    for (const trace of traces) {
      if (text.includes(trace.toLowerCase()))
        found.push(`${path.relative(dataDir, file)}: ${trace}`);
    }
  }
  return found;
}

function codeFromOutbox(email: string): string {
  const outbox = path.join(dataDir, "outbox");
  for (const name of fs.readdirSync(outbox)) {
    const text = fs.readFileSync(path.join(outbox, name), "utf8");
    const code = text.includes(email) && /^Your code: ([A-HJ-NP-Z2-9]{8})\r?$/m.exec(text)?.[1];
    if (code) return code;
  }
  throw new Error(`no verification code for ${email} in the outbox`);
}

/**
 * An account that had two addresses (mail kept to both: verification, reset, the change), a
 * member application, and a distinctive name; answers its traces and a signed-in token.
 */
async function personWithHistory(label: string) {
  const tag = randomBytes(4).toString("hex");
  const first = `first-${label}-${tag}@example.org`;
  const second = `second-${label}-${tag}@example.org`;
  const name = `Quillonia Vexmoor ${tag}`;
  const lastName = `Zarquon${tag}`;
  const registered = await app
    .http()
    .post(`${API}/auth/register`)
    .send({ name, email: first, password: TEST_PASSWORD });
  expect(registered.status).toBe(200);
  const person = { id: registered.body.user.id as string, token: "" };
  await app.http().post(`${API}/auth/forgot-password`).send({ email: first });
  await settle();
  const signedIn = await app
    .http()
    .post(`${API}/auth/login`)
    .send({ email: first, password: TEST_PASSWORD });
  person.token = signedIn.body.accessToken as string;
  const changed = await app
    .http()
    .put(`${API}/users/current`)
    .set(bearer(person))
    .send({ email: second });
  expect(changed.status).toBe(200);
  await settle();
  const verified = await app
    .http()
    .post(`${API}/auth/verify-email`)
    .send({ code: codeFromOutbox(second) });
  expect(verified.status).toBe(200);
  const applied = await app
    .http()
    .post(`${API}/members/apply`)
    .set(bearer(person))
    .send(minimalApplication({ lastName }));
  expect(applied.status).toBe(201);
  await app.http().post(`${API}/auth/forgot-password`).send({ email: second });
  await settle();
  return { person, traces: [first, second, name, lastName] };
}

it("leaves no trace of an account erased by its owner or by an administrator", async () => {
  const own = await personWithHistory("own");
  const byAdmin = await personWithHistory("admin");
  const traces = [...own.traces, ...byAdmin.traces];
  // The check can see them: every trace is on disk before the erasure.
  const before = tracesUnderDataDir(traces);
  for (const trace of traces) expect(before.some((hit) => hit.endsWith(`: ${trace}`))).toBe(true);

  const selfDeleted = await app.http().delete(`${API}/users/current`).set(bearer(own.person));
  expect(selfDeleted.status).toBe(204);
  const admin = await loginBootstrapAdmin(app);
  const adminDeleted = await app
    .http()
    .delete(`${API}/users/${byAdmin.person.id}`)
    .set(bearer(admin));
  expect(adminDeleted.status).toBe(204);
  await settle();

  expect(tracesUnderDataDir(traces)).toEqual([]);
});
