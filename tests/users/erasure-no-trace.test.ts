/**
 * Issue 8, erasure: deleting an account leaves no trace of the person's name, email, numbers
 * or address anywhere in the database, nor in the mail the service kept (the outbox of the
 * embedded default); the audit log keeps only ids.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { MongoClient } from "mongodb";
import { clientOptionsFor } from "../../src/db/connection";
import {
  bearer,
  loginBootstrapAdmin,
  minimalApplication,
  TEST_PASSWORD,
  type TestUser,
} from "../support/factories";
import { PDF, upload } from "../support/file-samples";
import { startTestApp, type TestApp } from "../support/test-app";
import { eventually } from "../support/until";

const API = "/api/v1";
const PERSON = {
  name: "Zephyrine Quixotezz",
  email: "zephyrine.quixotezz@example.org",
  firstName: "Zephyrine",
  lastName: "Quixotezz",
  mobilePhoneNumber: "09175550123",
  homeAddress: "77 Wisteria Lane Uniquetown",
  emergencyContactName: "Ulyssa Vantablack",
  emergencyContactMobile: "09185550999",
  sssNumber: "34-9999999-9",
  tinNumber: "999-888-777-000",
};
/** Everything that would identify the person, as stored or as mailed. */
const TRACES = [
  PERSON.name,
  PERSON.email,
  PERSON.lastName,
  PERSON.mobilePhoneNumber,
  PERSON.homeAddress,
  PERSON.emergencyContactName,
  PERSON.emergencyContactMobile,
  PERSON.sssNumber,
  PERSON.tinNumber,
];

let app: TestApp;
let inspector: MongoClient;
let dataDir: string;
let admin: { token: string };

beforeAll(async () => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "erasure-"));
  // No SMTP: mail is kept in DATA_DIR/outbox, which erasure must clean as well.
  app = await startTestApp({ SMTP_URL: "", DATA_DIR: dataDir });
  admin = await loginBootstrapAdmin(app);
  const uri = process.env.TEST_MONGODB_URI!;
  inspector = await new MongoClient(uri, clientOptionsFor(uri)).connect();
});
afterAll(async () => {
  await inspector?.close();
  await app?.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

const outbox = () => path.join(dataDir, "outbox");

function outboxTexts(): string[] {
  if (!fs.existsSync(outbox())) return [];
  return fs.readdirSync(outbox()).map((name) => fs.readFileSync(path.join(outbox(), name), "utf8"));
}

async function codeFromOutbox(email: string): Promise<string> {
  const codeNow = () => {
    const mail = outboxTexts().find((text) => text.includes(email) && /Your code: /.test(text));
    return mail && /^Your code: ([A-HJ-NP-Z2-9]{8})\r?$/m.exec(mail)?.[1];
  };
  const code = await eventually(codeNow, Boolean, 5_000);
  if (!code) throw new Error(`no verification code for ${email} in the outbox`);
  return code;
}

/**
 * Every document of every collection of the database, as text. Read through a connection of
 * the test's own: reading everything is the point here, and the service's connection is
 * checked for queries that scan.
 */
async function databaseTexts(): Promise<{ collection: string; text: string }[]> {
  const db = inspector.db(app.config.dbName);
  const found: { collection: string; text: string }[] = [];
  for (const { name } of await db.listCollections().toArray()) {
    for (const doc of await db.collection(name).find({}).toArray()) {
      found.push({ collection: name, text: JSON.stringify(doc) });
    }
  }
  return found;
}

const tracesIn = (texts: string[]) =>
  TRACES.filter((trace) => texts.some((text) => text.toLowerCase().includes(trace.toLowerCase())));

it("erases the person from every collection and from the kept mail, and keeps the audit trail by id", async () => {
  const registered = await app
    .http()
    .post(`${API}/auth/register`)
    .send({ name: PERSON.name, email: PERSON.email, password: TEST_PASSWORD });
  expect(registered.status).toBe(200);
  const person = {
    id: registered.body.user.id as string,
    token: registered.body.accessToken as string,
  };
  const verified = await app
    .http()
    .post(`${API}/auth/verify-email`)
    .send({ code: await codeFromOutbox(PERSON.email) });
  expect(verified.status).toBe(200);

  const applicationFields = Object.fromEntries(
    Object.entries(PERSON).filter(([field]) => field !== "name" && field !== "email"),
  );
  const applied = await app
    .http()
    .post(`${API}/members/apply`)
    .set(bearer(person))
    .send(minimalApplication(applicationFields));
  expect(applied.status).toBe(201);
  const memberId = applied.body.data.id as string;
  const approved = await app
    .http()
    .patch(`${API}/members/${memberId}/status`)
    .set(bearer(admin))
    .send({ status: "APPROVED" });
  expect(approved.status).toBe(200);
  const office = await app
    .http()
    .post(`${API}/offices/create`)
    .set(bearer(admin))
    .send({ name: "Erasure Test Chaplain", level: "CITY_CHAPLAIN" });
  const appointed = await app
    .http()
    .post(`${API}/offices/${office.body.data.id}/holders`)
    .set(bearer(admin))
    .send({ memberId, startDate: "2024-01-01T00:00:00.000Z" });
  expect(appointed.status).toBe(201);
  // What the person added to the public page carries their name too.
  const certificateFile = await upload(app, person as TestUser, PDF, {
    purpose: "CERTIFICATE",
    filename: "award.pdf",
  });
  const certificate = await app
    .http()
    .post(`${API}/members/current/certificates`)
    .set(bearer(person))
    .send({
      title: `${PERSON.lastName} Merit Award`,
      certificateUrl: certificateFile.body.data.id,
      issuedAt: "2024-01-01",
    });
  expect(certificate.status).toBe(201);
  const record = await app
    .http()
    .post(`${API}/members/current/public-records`)
    .set(bearer(person))
    .send({
      title: `Outreach by ${PERSON.lastName}`,
      shortDescription: `<p>${PERSON.name} served</p>`,
      type: "COMMUNITY_SERVICE",
      eventAt: "2024-02-02",
      location: PERSON.homeAddress,
      status: "PUBLISHED",
    });
  expect(record.status).toBe(201);
  await app.internals.mailer.flush();

  // The scan sees the person before: the account, the application, the appointment, the mail
  // (all but the SSS and TIN numbers, which are stored sealed).
  const before = await databaseTexts();
  const sealed = [PERSON.sssNumber, PERSON.tinNumber];
  expect(tracesIn(before.map((doc) => doc.text)).sort()).toEqual(
    TRACES.filter((trace) => !sealed.includes(trace)).sort(),
  );
  expect(tracesIn(outboxTexts())).toContain(PERSON.email);

  const erased = await app.http().delete(`${API}/users/${person.id}`).set(bearer(admin));
  expect(erased.status).toBe(204);

  const after = await databaseTexts();
  const left = after.filter((doc) => tracesIn([doc.text]).length > 0);
  expect(left.map((doc) => `${doc.collection}: ${tracesIn([doc.text]).join(", ")}`)).toEqual([]);
  expect(tracesIn(outboxTexts())).toEqual([]);

  const audit = after.filter((doc) => doc.collection === "audit_logs").map((doc) => doc.text);
  expect(audit.some((text) => text.includes(person.id) && text.includes("user.delete"))).toBe(true);
  expect(audit.some((text) => text.includes(memberId) && text.includes("member.apply"))).toBe(true);
});

it("forgets only the mail to that exact address, not to addresses that contain it", async () => {
  const mail = (to: string) => ({
    to,
    subject: "Notice",
    text: `Hello ${to}`,
    html: "<p>Hello</p>",
  });
  for (const to of ["ann@example.org", "x.ann@example.org", "ann@example.org.ph"]) {
    app.internals.mailer.send(mail(to));
  }
  expect(await app.internals.mailer.forget("ann@example.org")).toBe(1);
  const kept = outboxTexts().join("\n");
  expect(kept).toContain("To: x.ann@example.org");
  expect(kept).toContain("To: ann@example.org.ph");
  expect(kept).not.toMatch(/^To: ann@example\.org\r?$/m);
});
