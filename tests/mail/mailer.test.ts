import { closedPort } from "../support/expectations";
import { randomBytes } from "node:crypto";
import { mkdtemp, readdir, readFile, rm, stat } from "node:fs/promises";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { simpleParser } from "mailparser";
import pino from "pino";
import { SMTPServer } from "smtp-server";
import { Mailer, type MailMessage } from "../../src/mail/mailer";
import {
  applicationDecisionMail,
  passwordResetMail,
  verificationCodeMail,
} from "../../src/mail/templates";
import { resetTokenIn, TestMailbox, verificationCodeIn } from "../support/mailbox";

const FROM = "Chaplaincy Membership <no-reply@chaplaincy.test>";
const CODE = "ABCD2345";
const HOSTILE_NAME = `<script>alert("x")</script> & Co`;

function captureLogs() {
  const lines: string[] = [];
  const log = pino({ level: "info" }, { write: (line: string) => void lines.push(line) });
  const entries = () => lines.map((line) => JSON.parse(line) as Record<string, unknown>);
  return { log, lines, entries };
}

function resetToken(): string {
  return randomBytes(32).toString("base64url");
}

describe("Mailer over SMTP", () => {
  let mailbox: TestMailbox;

  beforeAll(async () => {
    mailbox = await TestMailbox.start();
  });
  afterAll(async () => {
    await mailbox.close();
  });

  it("delivers subject, text and html, and flush waits for the delivery", async () => {
    const { log, lines, entries } = captureLogs();
    const mailer = new Mailer({ smtpUrl: mailbox.url, outboxDir: "unused", from: FROM, log });
    const before = mailbox.messages.length;
    const message = verificationCodeMail({
      to: "Alice@Example.org",
      name: "Alice",
      code: CODE,
      expiresInMinutes: 15,
    });

    expect(mailer.send(message)).toBeUndefined();
    await mailer.flush();
    // flush resolved only after the server accepted the message.
    expect(mailbox.messages.length).toBe(before + 1);

    const mail = await mailbox.waitFor("alice@example.org", { after: before });
    expect(mail.subject).toBe("Your verification code");
    expect(mail.from).toContain("no-reply@chaplaincy.test");
    expect(mail.to).toEqual(["alice@example.org"]);
    expect(verificationCodeIn(mail)).toBe(CODE);
    expect(mail.html).toContain(CODE);
    expect(mailbox.to("ALICE@example.org")).toContain(mail);

    const [entry] = entries();
    expect(entry).toMatchObject({
      level: 30,
      msg: "mail sent",
      to: "***@Example.org",
      subject: "Your verification code",
    });
    expect(typeof entry.messageId).toBe("string");
    expect(lines.join("")).not.toContain(CODE);
    expect(lines.join("").toLowerCase()).not.toContain("alice");
    await mailer.close();
  });

  it("carries every template's code or token through real mail", async () => {
    const { log } = captureLogs();
    const mailer = new Mailer({ smtpUrl: mailbox.url, outboxDir: "unused", from: FROM, log });
    const token = resetToken();
    const before = mailbox.messages.length;
    mailer.send(
      passwordResetMail({ to: "bob@example.org", name: "Bob", token, expiresInMinutes: 30 }),
    );
    mailer.send(
      applicationDecisionMail({
        to: "bob@example.org",
        name: "Bob",
        decision: "REJECTED",
        reason: "Missing documents",
      }),
    );
    await mailer.close();

    const reset = await mailbox.waitFor("bob@example.org", { subject: /reset/i, after: before });
    expect(resetTokenIn(reset)).toBe(token);
    const decision = await mailbox.waitFor("BOB@example.org", { subject: /not approved/ });
    expect(decision.text).toContain("Missing documents");
  });

  it("waitFor rejects with what did arrive", async () => {
    await expect(mailbox.waitFor("nobody@example.org", { timeoutMs: 100 })).rejects.toThrow(
      /No mail to nobody@example\.org[\s\S]*Your verification code/,
    );
  });

  it("masks recipient addresses quoted in an SMTP rejection", async () => {
    const rejecting = new SMTPServer({
      authOptional: true,
      disabledCommands: ["STARTTLS"],
      logger: false,
      onRcptTo(address, _session, callback) {
        const error = new Error(`<${address.address}>: Recipient address rejected`);
        (error as Error & { responseCode: number }).responseCode = 550;
        callback(error);
      },
    });
    await new Promise<void>((resolve) => rejecting.listen(0, "127.0.0.1", resolve));
    const { port } = rejecting.server.address() as net.AddressInfo;
    const { log, lines, entries } = captureLogs();
    const mailer = new Mailer({
      smtpUrl: `smtp://127.0.0.1:${port}`,
      outboxDir: "x",
      from: FROM,
      log,
    });
    try {
      mailer.send(
        verificationCodeMail({
          to: "carol@example.org",
          name: "Carol",
          code: CODE,
          expiresInMinutes: 15,
        }),
      );
      await mailer.close();
    } finally {
      await new Promise<void>((resolve) => rejecting.close(resolve));
    }
    expect(entries()).toEqual([
      expect.objectContaining({ level: 50, to: "***@example.org", msg: "mail not sent" }),
    ]);
    expect(String(entries()[0].error)).toMatch(/\*\*\*@example\.org/);
    expect(lines.join("")).not.toContain("carol");
    expect(lines.join("")).not.toContain(CODE);
  });
});

describe("Mailer without SMTP", () => {
  let tmp: string;

  beforeEach(async () => {
    tmp = await mkdtemp(path.join(os.tmpdir(), "mailer-test-"));
  });
  afterEach(async () => {
    await rm(tmp, { recursive: true, force: true });
  });

  it("writes an .eml file to the outbox and logs its name but not the code", async () => {
    const outboxDir = path.join(tmp, "outbox");
    const { log, lines, entries } = captureLogs();
    const mailer = new Mailer({ outboxDir, from: FROM, log });

    mailer.send(
      verificationCodeMail({
        to: "dave@example.org",
        name: "Dave",
        code: CODE,
        expiresInMinutes: 15,
      }),
    );
    await mailer.flush();

    const files = await readdir(outboxDir);
    expect(files).toHaveLength(1);
    expect(files[0]).toMatch(/^\d{4}-\d\d-\d\dT\d{6}\.\d{3}Z-[0-9a-f]{8}\.eml$/);
    const file = path.join(outboxDir, files[0]);
    const raw = await readFile(file, "utf8");
    expect(raw).toContain("Subject: Your verification code");
    const parsed = await simpleParser(raw);
    expect(parsed.text).toContain(`Your code: ${CODE}`);
    expect(parsed.from?.text).toContain("no-reply@chaplaincy.test");
    if (process.platform !== "win32") {
      expect((await stat(file)).mode & 0o777).toBe(0o600);
      expect((await stat(outboxDir)).mode & 0o777).toBe(0o700);
    }

    expect(entries()).toEqual([
      expect.objectContaining({
        level: 30,
        msg: "mail written to outbox",
        file,
        subject: "Your verification code",
        to: "***@example.org",
      }),
    ]);
    expect(lines.join("")).not.toContain(CODE);
    await mailer.close();
  });

  it("keeps one file per message", async () => {
    const { log } = captureLogs();
    const mailer = new Mailer({ outboxDir: tmp, from: FROM, log });
    for (let i = 0; i < 3; i++)
      mailer.send(
        passwordResetMail({
          to: "e@example.org",
          name: "E",
          token: resetToken(),
          expiresInMinutes: 30,
        }),
      );
    await mailer.close();
    expect(await readdir(tmp)).toHaveLength(3);
  });
});

describe("Mailer failures", () => {
  it("never throws on an unreachable SMTP server and logs the failure without the body", async () => {
    const port = await closedPort();
    const { log, lines, entries } = captureLogs();
    const mailer = new Mailer({
      smtpUrl: `smtp://127.0.0.1:${port}`,
      outboxDir: "x",
      from: FROM,
      log,
    });
    const token = resetToken();
    const message = passwordResetMail({
      to: "frank@example.org",
      name: "Frank",
      token,
      expiresInMinutes: 30,
    });

    expect(() => mailer.send(message)).not.toThrow();
    await expect(mailer.flush()).resolves.toBeUndefined();

    expect(entries()).toEqual([
      expect.objectContaining({
        level: 50,
        msg: "mail not sent",
        to: "***@example.org",
        subject: "Reset your password",
      }),
    ]);
    expect(String(entries()[0].error)).toMatch(/ECONNREFUSED|connect/i);
    const logged = lines.join("");
    expect(logged).not.toContain(token);
    expect(logged).not.toContain("frank");
    expect(logged).not.toContain(message.text.split("\n")[2]);
    await mailer.close();
  });

  it("drops and logs a message sent after close", async () => {
    const { log, entries } = captureLogs();
    const mailer = new Mailer({ outboxDir: "never-created", from: FROM, log });
    await mailer.close();
    const message: MailMessage = { to: "g@example.org", subject: "Late", text: "t", html: "h" };
    expect(() => mailer.send(message)).not.toThrow();
    await mailer.flush();
    expect(entries()).toEqual([expect.objectContaining({ level: 50, subject: "Late" })]);
  });
});

describe("mail templates", () => {
  const appUrl = "https://members.example.org";

  it("verification: code on its own line, link with appUrl, API call without", () => {
    const withApp = verificationCodeMail({
      to: "a@x.org",
      name: HOSTILE_NAME,
      code: CODE,
      expiresInMinutes: 15,
      appUrl,
    });
    expect(withApp.subject).toBe("Your verification code");
    expect(withApp.text).toMatch(new RegExp(`^Your code: ${CODE}$`, "m"));
    expect(withApp.text).toContain(`${appUrl}/confirm-account?token=${CODE}`);
    expect(withApp.text).toContain("15 minutes");
    expect(withApp.html).toContain(`href="${appUrl}/confirm-account?token=${CODE}"`);

    const withoutApp = verificationCodeMail({
      to: "a@x.org",
      name: "A",
      code: CODE,
      expiresInMinutes: 15,
    });
    expect(withoutApp.text).toContain("POST /api/v1/auth/verify-email");
    expect(withoutApp.text).toContain(`Your code: ${CODE}`);
    expect(withoutApp.html).toContain(CODE);
  });

  it("password reset: token on its own line, link with appUrl, API call without", () => {
    const token = resetToken();
    const withApp = passwordResetMail({
      to: "a@x.org",
      name: "A",
      token,
      expiresInMinutes: 30,
      appUrl,
    });
    expect(withApp.subject).toBe("Reset your password");
    expect(withApp.text).toMatch(new RegExp(`^Reset token: ${token}$`, "m"));
    expect(withApp.text).toContain(`${appUrl}/reset-password?token=${encodeURIComponent(token)}`);

    const withoutApp = passwordResetMail({ to: "a@x.org", name: "A", token, expiresInMinutes: 30 });
    expect(withoutApp.text).toContain(`POST /api/v1/auth/reset-password?token=${token}`);
    expect(withoutApp.html).toContain(token);
  });

  it("application decisions: subject per decision, reason when given", () => {
    const approved = applicationDecisionMail({
      to: "a@x.org",
      name: "A",
      decision: "APPROVED",
      appUrl,
    });
    expect(approved.subject).toBe("Your membership application was approved");
    expect(approved.text).not.toContain("Reason");
    expect(approved.html).toContain(appUrl);

    const rejected = applicationDecisionMail({
      to: "a@x.org",
      name: "A",
      decision: "REJECTED",
      reason: "<b>incomplete</b>",
    });
    expect(rejected.subject).toBe("Your membership application was not approved");
    expect(rejected.text).toContain("Reason: <b>incomplete</b>");
    expect(rejected.html).toContain("Reason: &lt;b&gt;incomplete&lt;/b&gt;");
    expect(rejected.html).not.toContain("<b>incomplete");
  });

  it("escapes interpolated values in every HTML body", () => {
    const mails = [
      verificationCodeMail({ to: "a@x.org", name: HOSTILE_NAME, code: CODE, expiresInMinutes: 15 }),
      passwordResetMail({
        to: "a@x.org",
        name: HOSTILE_NAME,
        token: resetToken(),
        expiresInMinutes: 30,
      }),
      applicationDecisionMail({ to: "a@x.org", name: HOSTILE_NAME, decision: "APPROVED" }),
      applicationDecisionMail({
        to: "a@x.org",
        name: HOSTILE_NAME,
        decision: "REJECTED",
        reason: HOSTILE_NAME,
      }),
    ];
    for (const mail of mails) {
      expect(mail.html).not.toContain("<script>");
      expect(mail.html).toContain("&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; Co");
      expect(mail.text).toContain(HOSTILE_NAME);
      expect(mail.to).toBe("a@x.org");
    }
  });

  it("keeps a multi-line name from forging a code line", () => {
    const mail = verificationCodeMail({
      to: "a@x.org",
      name: "Eve\nYour code: ZZZZZZZZ",
      code: CODE,
      expiresInMinutes: 15,
    });
    expect(mail.text).not.toMatch(/^Your code: ZZZZZZZZ$/m);
  });
});
