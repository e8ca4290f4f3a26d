import { closedPort } from "../support/expectations";
import { mkdtemp, readdir, readFile, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { simpleParser } from "mailparser";
import { login, TEST_PASSWORD, uniqueEmail } from "../support/factories";
import { startTestApp, type TestApp } from "../support/test-app";
import { rawDb } from "../support/raw-db";

const CODE_LINE = /^Your code: ([A-HJ-NP-Z2-9]{8})$/m;

const register = (app: TestApp, email: string) =>
  app
    .http()
    .post("/api/v1/auth/register")
    .send({ name: "Mail Test", email, password: TEST_PASSWORD });

describe("mail without SMTP_URL", () => {
  let app: TestApp;
  let dataDir: string;
  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(os.tmpdir(), "chaplaincy-outbox-"));
    app = await startTestApp({ SMTP_URL: "", DATA_DIR: dataDir });
  });
  afterAll(async () => {
    await app.close();
    await rm(dataDir, { recursive: true, force: true });
  });

  it("writes the verification mail to DATA_DIR/outbox as an .eml whose code verifies", async () => {
    const email = uniqueEmail("outbox");
    expect((await register(app, email)).status).toBe(200);
    await app.internals.mailer.flush();
    const outbox = path.join(dataDir, "outbox");
    const files = (await readdir(outbox)).filter((name) => name.endsWith(".eml"));
    expect(files).toHaveLength(1);
    const parsed = await simpleParser(await readFile(path.join(outbox, files[0])));
    expect(parsed.subject).toMatch(/verification code/i);
    expect(JSON.stringify(parsed.to)).toContain(email);
    expect(parsed.html).toBeTruthy();
    const code = CODE_LINE.exec(parsed.text ?? "")?.[1];
    expect(code).toBeDefined();
    const verified = await app.http().post("/api/v1/auth/verify-email").send({ code });
    expect(verified.status).toBe(200);
    expect(verified.body.user).toMatchObject({ email, isEmailVerified: true });
  });
});

describe("mail when the SMTP server is down", () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp({ SMTP_URL: `smtp://127.0.0.1:${await closedPort()}` });
  });
  afterAll(() => app?.close());

  it("still creates the account and answers at once; the user can sign in", async () => {
    const email = uniqueEmail("nosmtp");
    const response = await register(app, email);
    expect(response.status).toBe(200);
    expect(response.body.user).toMatchObject({ email, isEmailVerified: false });
    await app.internals.mailer.flush();
    expect(await rawDb(app).users.countDocuments({ email })).toBe(1);
    expect((await login(app, email, TEST_PASSWORD)).token).toBeTruthy();
  });

  it("answers forgot-password with its usual 200 and keeps the account usable", async () => {
    const email = uniqueEmail("nosmtp");
    await register(app, email);
    const response = await app.http().post("/api/v1/auth/forgot-password").send({ email });
    expect(response.status).toBe(200);
    await app.internals.mailer.flush();
    expect((await login(app, email, TEST_PASSWORD)).token).toBeTruthy();
  });
});
