import type { MailMessage } from "./mailer";
import { button, compose, escapeHtml, muted, oneLine, paragraph } from "./templates";

/*
 * Mail of the onboarding after approval (contract §11): every administrator's decision reaches
 * the member, with the note the administrator wrote.
 */

interface Recipient {
  to: string;
  name: string;
  appUrl?: string;
}

function decisionMail(
  p: Recipient,
  subject: string,
  outcome: string,
  note: string | null | undefined,
  next: string,
): MailMessage {
  const text = [`Hello ${oneLine(p.name)},`, "", outcome];
  const html = [paragraph(`Hello ${escapeHtml(oneLine(p.name))},`), paragraph(escapeHtml(outcome))];
  const trimmed = note?.trim();
  if (trimmed) {
    text.push("", `Note from the administrator: ${trimmed}`);
    html.push(paragraph(`Note from the administrator: ${escapeHtml(trimmed)}`));
  }
  text.push("", next);
  html.push(muted(next));
  if (p.appUrl) {
    text.push(`Open ${p.appUrl} to continue your onboarding.`);
    html.push(button(p.appUrl, "Continue my onboarding"));
  }
  return compose(p.to, subject, text, html);
}

const DOCUMENT_NAMES: Record<string, string> = { PHOTO_2X2: "2x2 photo" };

/** "CLEARANCE_NBI" → "clearance nbi"; the photo by its usual name. */
export function documentName(type: string): string {
  return DOCUMENT_NAMES[type] ?? type.toLowerCase().replace(/_/g, " ");
}

export function requirementReviewMail(
  p: Recipient & { type: string; reviewStatus: string; note: string | null },
): MailMessage {
  const name = documentName(p.type);
  const accepted = p.reviewStatus === "APPROVED";
  const outcome = accepted
    ? `Your ${name} was accepted.`
    : p.reviewStatus === "REJECTED"
      ? `Your ${name} was not accepted.`
      : `Your ${name} is waiting for review again.`;
  const next = accepted
    ? "Nothing more is needed for this document."
    : "Upload a new file for it in your onboarding requirements.";
  return decisionMail(p, `Your ${name}: ${p.reviewStatus.toLowerCase()}`, outcome, p.note, next);
}

export function paymentDecisionMail(
  p: Recipient & { status: string; note: string | null; amount: number; currency: string },
): MailMessage {
  const verified = p.status === "VERIFIED";
  const fee = `${p.currency} ${p.amount}`;
  const outcome = verified
    ? `Your membership fee payment of ${fee} was verified.`
    : `Your membership fee payment of ${fee} could not be verified.`;
  const next = verified
    ? "You can now generate your member ID card and certificate."
    : "Submit your payment again with a readable proof.";
  return decisionMail(
    p,
    `Your membership fee payment was ${verified ? "verified" : "not verified"}`,
    outcome,
    p.note,
    next,
  );
}

export function oathTakenMail(
  p: Recipient & { uniqueId: string | null; takenAt: Date; place: string; certificate?: Buffer },
): MailMessage {
  const when = p.takenAt.toLocaleDateString("en-PH", {
    timeZone: "Asia/Manila",
    year: "numeric",
    month: "long",
    day: "numeric",
  });
  const outcome =
    `Your oath as an Associate Chaplain was recorded (${when}, ${oneLine(p.place)}). ` +
    "Your onboarding is complete. Welcome!";
  const next = p.certificate
    ? "Your certificate of membership is attached."
    : "Your certificate of membership is in the app.";
  const message = decisionMail(
    p,
    "Welcome, Associate Chaplain: your onboarding is complete",
    p.uniqueId ? `${outcome} Member ID: ${p.uniqueId}.` : outcome,
    null,
    next,
  );
  if (p.certificate) {
    message.attachments = [
      { filename: "certificate.pdf", content: p.certificate, contentType: "application/pdf" },
    ];
  }
  return message;
}
