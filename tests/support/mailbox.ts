import type { AddressInfo } from "node:net";
import { simpleParser } from "mailparser";
import { SMTPServer, type SMTPServerDataStream, type SMTPServerSession } from "smtp-server";

export interface ReceivedMail {
  /** Envelope recipients (RCPT TO), lower-cased. */
  to: string[];
  /** The From header as text, e.g. `Chaplaincy Membership <no-reply@localhost>`. */
  from: string;
  subject: string;
  text: string;
  html: string;
  raw: string;
}

const POLL_MS = 20;

/**
 * A real SMTP server on a free local port that keeps every message it receives, so tests
 * exercise the app's actual mail path (SMTP_URL=mailbox.url) and read codes from real mail.
 */
export class TestMailbox {
  private constructor(
    private readonly server: SMTPServer,
    readonly url: string,
    /** In arrival order; a message is here before the sender's SMTP transaction completes. */
    readonly messages: ReceivedMail[],
  ) {}

  static async start(): Promise<TestMailbox> {
    const messages: ReceivedMail[] = [];
    const server = new SMTPServer({
      authOptional: true,
      disabledCommands: ["STARTTLS"],
      logger: false,
      banner: "test mailbox",
      // Senders close their connection after each message; do not wait long for stragglers.
      closeTimeout: 1000,
      onData(stream, session, callback) {
        receive(stream, session).then(
          (mail) => {
            messages.push(mail);
            callback();
          },
          (error: Error) => callback(error),
        );
      },
    });
    // An unhandled 'error' event would crash the test process; a failed send shows in the test.
    server.on("error", () => undefined);
    await new Promise<void>((resolve, reject) => {
      server.server.once("error", reject);
      server.listen(0, "127.0.0.1", () => resolve());
    });
    const { port } = server.server.address() as AddressInfo;
    return new TestMailbox(server, `smtp://127.0.0.1:${port}`, messages);
  }

  /**
   * The first message to `to` (case-insensitive) at index `after` or later whose subject
   * matches `subject`; polls until `timeoutMs` (30 s) and then rejects listing what arrived.
   */
  async waitFor(
    to: string,
    options: { subject?: RegExp; timeoutMs?: number; after?: number } = {},
  ): Promise<ReceivedMail> {
    // Generous: it returns as soon as the mail is there, and a loaded machine delivers late.
    const { subject, timeoutMs = 30_000, after = 0 } = options;
    const address = to.toLowerCase();
    const matches = (mail: ReceivedMail) =>
      mail.to.includes(address) && (subject === undefined || subject.test(mail.subject));
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const found = this.messages.slice(after).find(matches);
      if (found) return found;
      if (Date.now() >= deadline) break;
      await new Promise((resolve) => setTimeout(resolve, POLL_MS));
    }
    const arrived = this.messages.map(
      (mail, index) => `  #${index} to ${mail.to.join(", ")}: "${mail.subject}"`,
    );
    throw new Error(
      `No mail to ${to}${subject ? ` with subject ${String(subject)}` : ""} from #${after} on ` +
        `within ${timeoutMs} ms. Received:\n${arrived.length > 0 ? arrived.join("\n") : "  (nothing)"}`,
    );
  }

  /** All messages to that address so far. */
  to(address: string): ReceivedMail[] {
    const wanted = address.toLowerCase();
    return this.messages.filter((mail) => mail.to.includes(wanted));
  }

  close(): Promise<void> {
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}

async function receive(
  stream: SMTPServerDataStream,
  session: SMTPServerSession,
): Promise<ReceivedMail> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  const raw = Buffer.concat(chunks);
  const parsed = await simpleParser(raw);
  return {
    to: session.envelope.rcptTo.map((rcpt) => rcpt.address.toLowerCase()),
    from: parsed.from?.text ?? "",
    subject: parsed.subject ?? "",
    text: parsed.text ?? "",
    html: parsed.html || "",
    raw: raw.toString("utf8"),
  };
}

/** The 8-character verification code (A-Z and 2-9 without I and O) from the "Your code:" line. */
export function verificationCodeIn(mail: ReceivedMail): string {
  return labelled(mail, /^Your code: ([A-HJ-NP-Z2-9]{8})\r?$/m, "verification code");
}

/** The password reset token (base64url, 32+ characters) from the "Reset token:" line. */
export function resetTokenIn(mail: ReceivedMail): string {
  return labelled(mail, /^Reset token: ([A-Za-z0-9_-]{32,})\r?$/m, "reset token");
}

function labelled(mail: ReceivedMail, pattern: RegExp, what: string): string {
  const match = pattern.exec(mail.text);
  if (!match) throw new Error(`No ${what} in mail "${mail.subject}":\n${mail.text}`);
  return match[1];
}
