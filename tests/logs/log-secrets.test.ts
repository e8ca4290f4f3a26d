/**
 * Logs never carry a password, token, code, signature or SSS/TIN number. This file runs last
 * (tests/support/test-sequencer.js): it drives every flow that handles such a secret, then
 * scans the logs of every app of the run, its own and the whole suite's so far. The global
 * teardown scans again once every file is done.
 */
import fs from "node:fs";
import path from "node:path";
import { generate } from "otplib";
import { LoginDocument } from "../graphql/generated";
import { bearer, buildUser, minimalApplication, TEST_PASSWORD } from "../support/factories";
import { findSecretsInLine, findSecretsInLogs } from "../support/log-secrets";
import { resetTokenIn } from "../support/mailbox";
import { startTestApp, type TestApp } from "../support/test-app";

let app: TestApp;

beforeAll(async () => {
  app = await startTestApp();
  await driveEverySecretFlow();
});
afterAll(() => app?.close());

const NEW_PASSWORD = "Rotated#2468";
const WRONG_PASSWORD = "Wrong#Password1";

async function driveEverySecretFlow(): Promise<void> {
  const user = await buildUser(app);
  const http = () => app.http();
  await http().post("/api/v1/auth/login").send({ email: user.email, password: WRONG_PASSWORD });
  const signedIn = await http()
    .post("/api/v1/auth/login")
    .send({ email: user.email, password: TEST_PASSWORD });
  const cookie = signedIn.headers["set-cookie"];
  await http().get("/api/v1/auth/refresh-token").set("cookie", cookie);

  const setup = await http().post("/api/v1/auth/mfa/setup").set(bearer(user)).send({});
  await http()
    .post("/api/v1/auth/mfa/enable")
    .set(bearer(user))
    .send({ code: await generate({ secret: setup.body.secret }) });

  await http()
    .post("/api/v1/members/apply")
    .set(bearer(user))
    .send(
      minimalApplication({
        sssNumber: "34-1234567-8",
        tinNumber: "123-456-789-000",
        signature: { type: "DRAWN", signatureData: "data:image/png;base64,iVBORw0KGgo=" },
      }),
    );

  const mailsBefore = app.mail.messages.length;
  await http().post("/api/v1/auth/forgot-password").send({ email: user.email });
  const mail = await app.mail.waitFor(user.email, { after: mailsBefore });
  await http()
    .post(`/api/v1/auth/reset-password?token=${encodeURIComponent(resetTokenIn(mail))}`)
    .send({ password: NEW_PASSWORD, confirmPassword: NEW_PASSWORD });
  await app.graphql(LoginDocument, { email: "x@example.org", password: TEST_PASSWORD }, user.token);
}

test("the scanner recognises each kind of secret it looks for", () => {
  const planted = [
    `{"msg":"x","password":"${TEST_PASSWORD}"}`,
    '{"authorization":"Bearer eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.abcdefghijklmnop"}',
    '{"code":"K7M2P9QX"}',
    '{"sss":"34-1234567-8"}',
    '{"note":"data:image/png;base64,AAAA"}',
    '{"token":"abc"}',
  ];
  for (const line of planted) expect(findSecretsInLine(line)).not.toEqual([]);
  expect(findSecretsInLine('{"code":"CONFLICT","password":"[redacted]","ms":123456}')).toEqual([]);
});

test("every log line is JSON, and request lines carry the request id", () => {
  const lines = fs
    .readFileSync(path.join(process.env.TEST_LOG_DIR!, `${app.config.dbName}.log`), "utf8")
    .split("\n")
    .filter(Boolean)
    .map((line) => JSON.parse(line) as { msg?: string; req?: { id?: string }; level: number });
  const requests = lines.filter((line) => line.req);
  expect(requests.length).toBeGreaterThan(5);
  for (const line of requests) expect(line.req!.id).toEqual(expect.any(String));
});

test("no log line of the run carries a secret", () => {
  const scan = findSecretsInLogs(process.env.TEST_LOG_DIR!, [NEW_PASSWORD, WRONG_PASSWORD]);
  expect(scan.files).toBeGreaterThan(0);
  expect(scan.lines).toBeGreaterThan(10);
  expect(scan.findings).toEqual([]);
});
