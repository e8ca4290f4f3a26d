import { DEFAULT_MAIL_HEADER } from "./header";
import type { MailMessage } from "./mailer";

/*
 * Every mail has a plain-text body (the one clients and tests read codes from) and a small
 * HTML body with inline styles only: mail clients strip <style> blocks and block remote assets.
 * The code and token sit on lines of their own ("Your code: …", "Reset token: …") so they can
 * be found reliably in the text.
 */

export function verificationCodeMail(p: {
  to: string;
  name: string;
  code: string;
  expiresInMinutes: number;
  appUrl?: string;
}): MailMessage {
  const link = p.appUrl && `${p.appUrl}/confirm-account?token=${encodeURIComponent(p.code)}`;
  const how = link
    ? `Open ${link} to confirm it, or enter the code in the app.`
    : `Send it as {"code": "${p.code}"} to POST /api/v1/auth/verify-email to confirm it.`;
  const text = [
    `Hello ${oneLine(p.name)},`,
    "",
    "Please confirm your email address with this code:",
    "",
    `Your code: ${p.code}`,
    "",
    how,
    `The code expires in ${p.expiresInMinutes} minutes.`,
    "",
    "If you did not create an account, you can ignore this message.",
  ];
  const html = [
    paragraph(`Hello ${escapeHtml(oneLine(p.name))},`),
    paragraph("Please confirm your email address with this code:"),
    `<p style="font-size:24px;font-weight:bold;letter-spacing:4px;font-family:monospace">${escapeHtml(p.code)}</p>`,
    link
      ? button(link, "Verify my email address")
      : paragraph(
          `Send it to <code>POST /api/v1/auth/verify-email</code> as <code>${escapeHtml(`{"code": "${p.code}"}`)}</code>.`,
        ),
    paragraph(`The code expires in ${escapeHtml(String(p.expiresInMinutes))} minutes.`),
    muted("If you did not create an account, you can ignore this message."),
  ];
  return compose(p.to, "Your verification code", text, html);
}

export function passwordResetMail(p: {
  to: string;
  name: string;
  token: string;
  expiresInMinutes: number;
  appUrl?: string;
}): MailMessage {
  const link = p.appUrl && `${p.appUrl}/reset-password?token=${encodeURIComponent(p.token)}`;
  const apiCall = `POST /api/v1/auth/reset-password?token=${encodeURIComponent(p.token)}`;
  const how = link
    ? `Open ${link} to choose a new password.`
    : `Send {"password": …, "confirmPassword": …} to ${apiCall} to choose a new password.`;
  const text = [
    `Hello ${oneLine(p.name)},`,
    "",
    "Someone asked to reset the password of your account.",
    how,
    "",
    `Reset token: ${p.token}`,
    "",
    `The token can be used once and expires in ${p.expiresInMinutes} minutes.`,
    "If you did not ask for this, ignore this message: your password stays as it is.",
  ];
  const html = [
    paragraph(`Hello ${escapeHtml(oneLine(p.name))},`),
    paragraph("Someone asked to reset the password of your account."),
    link
      ? button(link, "Choose a new password")
      : paragraph(
          `Send <code>{"password": …, "confirmPassword": …}</code> to <code>${escapeHtml(apiCall)}</code>.`,
        ),
    paragraph(`Reset token: <code>${escapeHtml(p.token)}</code>`),
    paragraph(
      `The token can be used once and expires in ${escapeHtml(String(p.expiresInMinutes))} minutes.`,
    ),
    muted("If you did not ask for this, ignore this message: your password stays as it is."),
  ];
  return compose(p.to, "Reset your password", text, html);
}

export function applicationDecisionMail(p: {
  to: string;
  name: string;
  decision: "APPROVED" | "REJECTED";
  reason?: string | null;
  appUrl?: string;
  /** The member's public page (APP_URL/profile/<uniqueId>), once approved. */
  publicUrl?: string | null;
}): MailMessage {
  const approved = p.decision === "APPROVED";
  const outcome = approved
    ? "Your membership application was approved. Welcome!"
    : "We are sorry: your membership application was not approved.";
  const reason = p.reason?.trim() || undefined;
  const text = [`Hello ${oneLine(p.name)},`, "", outcome];
  const html = [paragraph(`Hello ${escapeHtml(oneLine(p.name))},`), paragraph(escapeHtml(outcome))];
  if (reason) {
    text.push("", `Reason: ${reason}`);
    html.push(paragraph(`Reason: ${escapeHtml(reason)}`));
  }
  if (approved && p.publicUrl) {
    text.push("", `Your public page: ${p.publicUrl}`);
    const href = escapeHtml(p.publicUrl);
    html.push(paragraph(`Your public page: <a href="${href}">${href}</a>`));
  }
  if (p.appUrl) {
    text.push("", `Sign in at ${p.appUrl} for the details.`);
    html.push(button(p.appUrl, "Open the app"));
  }
  const subject = `Your membership application was ${approved ? "approved" : "not approved"}`;
  return compose(p.to, subject, text, html);
}

/** To the address an account leaves: the owner learns of a change they may not have made. */
export function emailChangedMail(p: { to: string; name: string; newEmail: string }): MailMessage {
  const masked = maskedAddress(p.newEmail);
  const text = [
    `Hello ${oneLine(p.name)},`,
    "",
    `The email address of your account was changed from this address to ${masked}.`,
    "Mail about your account, password resets included, now goes there.",
    "",
    "If you did not do this, reset your password and contact an administrator at once.",
  ];
  const html = [
    paragraph(`Hello ${escapeHtml(oneLine(p.name))},`),
    paragraph(
      `The email address of your account was changed from this address to ${escapeHtml(masked)}.`,
    ),
    paragraph("Mail about your account, password resets included, now goes there."),
    muted("If you did not do this, reset your password and contact an administrator at once."),
  ];
  return compose(p.to, "The email address of your account was changed", text, html);
}

/** Tells the owner the password changed, so a change they did not make does not go unnoticed. */
export function passwordChangedMail(p: {
  to: string;
  name: string;
  how: "changed" | "reset";
}): MailMessage {
  const what =
    p.how === "reset"
      ? "The password of your account was reset through a link mailed to this address."
      : "The password of your account was changed by someone signed in to it.";
  const after =
    p.how === "reset" ? "Every session was signed out." : "Every other session was signed out.";
  const warning =
    "If you did not do this, reset your password and contact an administrator at once.";
  const text = [`Hello ${oneLine(p.name)},`, "", what, after, "", warning];
  const html = [
    paragraph(`Hello ${escapeHtml(oneLine(p.name))},`),
    paragraph(what),
    paragraph(after),
    muted(warning),
  ];
  return compose(p.to, "The password of your account was changed", text, html);
}

/** `jo***@example.org`: enough for the owner to recognise, not a full address to a mailbox. */
function maskedAddress(address: string): string {
  const at = address.lastIndexOf("@");
  if (at < 0) return "***";
  return `${address.slice(0, Math.min(2, at))}***${address.slice(at)}`;
}

export function compose(to: string, subject: string, text: string[], html: string[]): MailMessage {
  return { to, subject, text: `${text.join("\n")}\n`, html: layout(subject, html) };
}

function layout(title: string, blocks: string[]): string {
  return [
    "<!doctype html>",
    `<html><head><meta charset="utf-8"><title>${escapeHtml(title)}</title></head>`,
    '<body style="margin:0;padding:24px;background:#f4f4f5;font-family:Arial,Helvetica,sans-serif;color:#18181b">',
    '<div style="max-width:560px;margin:0 auto;padding:24px;background:#ffffff;border-radius:8px">',
    DEFAULT_MAIL_HEADER,
    ...blocks,
    "</div>",
    "</body></html>",
  ].join("\n");
}

export function paragraph(innerHtml: string): string {
  return `<p style="margin:0 0 16px;font-size:16px;line-height:1.5">${innerHtml}</p>`;
}

export function muted(text: string): string {
  return `<p style="margin:16px 0 0;font-size:13px;color:#71717a">${escapeHtml(text)}</p>`;
}

export function button(href: string, label: string): string {
  return (
    `<p style="margin:0 0 16px"><a href="${escapeHtml(href)}" ` +
    'style="display:inline-block;padding:10px 18px;background:#1d4ed8;color:#ffffff;' +
    `text-decoration:none;border-radius:6px">${escapeHtml(label)}</a></p>`
  );
}

/** A name with line breaks must not be able to add lines (e.g. a fake "Your code:" line). */
export function oneLine(value: string): string {
  return value.replace(/\s+/g, " ").trim();
}

export function escapeHtml(value: string): string {
  return value
    .replace(/&/g, "&amp;")
    .replace(/</g, "&lt;")
    .replace(/>/g, "&gt;")
    .replace(/"/g, "&quot;")
    .replace(/'/g, "&#39;");
}

/**
 * A mail of plain lines (a module's notice): the text body as given, the HTML body a paragraph
 * per non-empty line. Each line is made one line, so a name cannot add lines.
 */
export function noticeMail(to: string, subject: string, lines: string[]): MailMessage {
  const text = lines.map(oneLine);
  const html = text.filter((line) => line !== "").map((line) => paragraph(escapeHtml(line)));
  return compose(to, subject, text, html);
}
