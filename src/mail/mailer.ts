import { randomBytes } from "node:crypto";
import { mkdir, readdir, readFile, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import nodemailer from "nodemailer";
import type { Logger } from "../logger";
import { DEFAULT_MAIL_HEADER, escapeText, mailHeader } from "./header";

export interface MailAttachment {
  filename: string;
  content: Buffer | string;
  /** e.g. `text/calendar; method=REQUEST; charset=UTF-8` for an invitation. */
  contentType: string;
}

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html: string;
  attachments?: MailAttachment[];
}

/** Who signs every mail: the display name of From and the lines under the body. */
export interface MailSender {
  name: string;
  signature: string[];
}

export interface MailerOptions {
  /** Absent: messages are written to `outboxDir` as .eml files instead of being sent. */
  smtpUrl?: string;
  outboxDir: string;
  /** Sender of every mail, e.g. `Chaplaincy Membership <no-reply@example.org>`. */
  from: string;
  log: Logger;
  /**
   * The organisation as it stands when a mail goes out (settings): its name is the From
   * display name and its contacts sign the mail. Absent: `from` as it is, unsigned.
   */
  sender?: () => Promise<MailSender>;
}

/** Fields a delivery adds to the success log line: a file name or an SMTP message id. */
type DeliveryReceipt = { file: string } | { messageId: string };

interface Delivery {
  deliver(message: MailMessage): Promise<DeliveryReceipt>;
  /** Deletes every kept message to `address` (erasure); returns how many. */
  forget(address: string): Promise<number>;
  /** Whether messages stay where the service can reach them again (the outbox). */
  keepsMessages: boolean;
  close(): void;
}

/** A dead or black-holed SMTP server must not keep a send (and thus flush/shutdown) pending. */
const SMTP_TIMEOUT_MS = 10_000;

/**
 * Sends mail without making callers wait for it: a slow or broken SMTP server must not turn
 * register or forgot-password into a slow or failing request (and must not reveal, through
 * timing or errors, whether an account exists). Failures are logged instead.
 *
 * Message bodies hold verification codes and reset tokens, so they are never logged; neither
 * is a full recipient address.
 */
export class Mailer {
  private readonly delivery: Delivery;
  private readonly log: Logger;
  private readonly sender?: () => Promise<MailSender>;
  private readonly address: string;
  private readonly pending = new Set<Promise<boolean>>();
  private closed = false;

  constructor(options: MailerOptions) {
    this.log = options.log;
    this.sender = options.sender;
    this.address = /<([^>]+)>\s*$/.exec(options.from)?.[1] ?? options.from.trim();
    this.delivery =
      options.smtpUrl === undefined
        ? outboxDelivery(options.outboxDir, options.from)
        : smtpDelivery(options.smtpUrl, options.from);
  }

  /** Fire and forget: never throws, never rejects; a failure is logged (error level). */
  send(message: MailMessage): void {
    const fields = { to: maskAddress(message.to), subject: message.subject };
    if (this.closed) {
      this.log.error(fields, "mail dropped: the mailer is closed");
      return;
    }
    const sending = this.deliverAndLog(message, fields);
    this.pending.add(sending);
    void sending.finally(() => this.pending.delete(sending));
  }

  /**
   * Sends and waits: true once the message is delivered, false when it could not be (logged
   * like a failed send). For work that must be done again when its mail did not go, such as a
   * reminder whose claim is released for the next look.
   */
  async deliver(message: MailMessage): Promise<boolean> {
    const fields = { to: maskAddress(message.to), subject: message.subject };
    if (this.closed) {
      this.log.error(fields, "mail dropped: the mailer is closed");
      return false;
    }
    const sending = this.deliverAndLog(message, fields);
    this.pending.add(sending);
    try {
      return await sending;
    } finally {
      this.pending.delete(sending);
    }
  }

  /**
   * Erasure: messages to `address` still kept by the service (the outbox of the embedded
   * default) are deleted, after any send to it still under way. SMTP keeps nothing here.
   */
  async forget(address: string): Promise<number> {
    await this.flush();
    return this.delivery.forget(address);
  }

  /** True for the outbox of the embedded default, whose messages erasure must find again. */
  get keepsMessages(): boolean {
    return this.delivery.keepsMessages;
  }

  /** Resolves when every send started so far has finished (succeeded or failed). */
  async flush(): Promise<void> {
    // Sends never reject (deliverAndLog catches), so Promise.all waits for all of them.
    await Promise.all([...this.pending]);
  }

  /** flush, then close the transport. */
  async close(): Promise<void> {
    this.closed = true;
    await this.flush();
    this.delivery.close();
  }

  /** The message signed by the organisation, From its name; as it is when that cannot be read. */
  private async signed(message: MailMessage): Promise<MailMessage & { from?: object }> {
    if (!this.sender) return message;
    try {
      const sender = await this.sender();
      return {
        ...signMessage(message, sender),
        from: { name: sender.name, address: this.address },
      };
    } catch (error) {
      this.log.warn({ ...describeError(error) }, "mail sent unsigned: settings unreadable");
      return message;
    }
  }

  /** Never rejects: whether the message went. */
  private async deliverAndLog(
    message: MailMessage,
    fields: { to: string; subject: string },
  ): Promise<boolean> {
    try {
      const receipt = await this.delivery.deliver(await this.signed(message));
      this.log.info(
        { ...fields, ...receipt },
        "file" in receipt ? "mail written to outbox" : "mail sent",
      );
      return true;
    } catch (error) {
      this.log.error({ ...fields, ...describeError(error) }, "mail not sent");
      return false;
    }
  }
}

/** The signature under a mail's text and HTML bodies, and the organisation's name above. */
export function signMessage(message: MailMessage, sender: MailSender): MailMessage {
  const lines = [sender.name, ...sender.signature].map((line) => line.replace(/\s+/g, " ").trim());
  const kept = lines.filter((line) => line !== "");
  const html = kept.map((line) => escapeText(line)).join("<br>");
  const block = `<p style="margin:24px 0 0;font-size:13px;color:#71717a">${html}</p>`;
  const headed = message.html.replace(DEFAULT_MAIL_HEADER, () => mailHeader(sender.name));
  const closing = headed.lastIndexOf("</div>");
  return {
    ...message,
    text: `${message.text.replace(/\n*$/, "")}\n\n--\n${kept.join("\n")}\n`,
    html:
      closing >= 0
        ? `${headed.slice(0, closing)}${block}\n${headed.slice(closing)}`
        : `${headed}${block}`,
  };
}

function smtpDelivery(smtpUrl: string, from: string): Delivery {
  // Plain smtp:// upgrades with STARTTLS when the server offers it (nodemailer's default).
  const transport = nodemailer.createTransport({
    url: smtpUrl,
    connectionTimeout: SMTP_TIMEOUT_MS,
    greetingTimeout: SMTP_TIMEOUT_MS,
    socketTimeout: SMTP_TIMEOUT_MS,
  });
  return {
    async deliver(message) {
      const info = await transport.sendMail({ from, ...message });
      return { messageId: info.messageId };
    },
    forget: () => Promise.resolve(0),
    keepsMessages: false,
    close: () => transport.close(),
  };
}

/** Development and test default: the raw message lands in a file a developer can open. */
function outboxDelivery(outboxDir: string, from: string): Delivery {
  const transport = nodemailer.createTransport({ streamTransport: true, buffer: true });
  return {
    async deliver(message) {
      const info = await transport.sendMail({ from, ...message });
      if (!Buffer.isBuffer(info.message)) throw new Error("stream transport returned no buffer");
      // Created on every send (cheap, idempotent) so a deleted outbox does not break mail.
      await mkdir(outboxDir, { recursive: true, mode: 0o700 });
      const file = path.join(outboxDir, outboxFileName());
      await writeFile(file, info.message, { mode: 0o600, flag: "wx" });
      return { file };
    },
    forget: (address) => forgetInOutbox(outboxDir, address),
    keepsMessages: true,
    close: () => transport.close(),
  };
}

async function forgetInOutbox(outboxDir: string, address: string): Promise<number> {
  const names = await readdir(outboxDir).catch(() => [] as string[]);
  // The address whole, as the To header lists it: bare, in <>, or among others.
  const recipient = new RegExp(`^To:(.*[\\s<,])?${escapeRegExp(address)}([\\s>,].*)?$`, "im");
  let removed = 0;
  for (const name of names.filter((file) => file.endsWith(".eml"))) {
    const file = path.join(outboxDir, name);
    const content = await readFile(file, "utf8").catch(() => "");
    if (!recipient.test(content)) continue;
    await rm(file, { force: true });
    removed += 1;
  }
  return removed;
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/** Sorts by time in a directory listing; colons are left out because Windows forbids them. */
function outboxFileName(now = new Date()): string {
  return `${now.toISOString().replace(/:/g, "")}-${randomBytes(4).toString("hex")}.eml`;
}

/** `alice@example.org` → `***@example.org`: enough to tell providers apart, not people. */
export function maskAddress(address: string): string {
  const at = address.lastIndexOf("@");
  return at < 0 ? "***" : `***@${address.slice(at + 1)}`;
}

/**
 * Only the message and code of an error: nodemailer errors also carry the SMTP command and
 * response, which may quote the recipient. Addresses inside the message are masked too
 * (e.g. "550 <alice@example.org>: Recipient address rejected").
 */
function describeError(error: unknown): { error: string; code?: string } {
  const message = error instanceof Error ? error.message : String(error);
  const masked = message.replace(/[^\s<>"'(),;:]+@([^\s<>"'(),;:]+)/g, "***@$1");
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === "string" ? { error: masked, code } : { error: masked };
}
