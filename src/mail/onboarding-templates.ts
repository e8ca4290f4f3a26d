import type { MailMessage } from "./mailer";
import { manilaDate } from "./dates";
import { documentName, paymentWords, reviewWords } from "./status-words";
import { button, compose, escapeHtml, muted, oneLine, paragraph } from "./templates";

/*
 * Mail of the onboarding after approval: every administrator's decision reaches
 * the member, with the note the administrator wrote.
 */

interface Recipient {
  to: string;
  name: string;
  appUrl?: string;
}

/** Where the mail's link leads: on with the onboarding, unless it is over. */
interface AppLink {
  sentence: (appUrl: string) => string;
  button: string;
}

const CONTINUE: AppLink = {
  sentence: (appUrl) => `Open ${appUrl} to continue your onboarding.`,
  button: "Continue my onboarding",
};

function decisionMail(
  p: Recipient,
  subject: string,
  outcome: string,
  note: string | null | undefined,
  next: string,
  link: AppLink = CONTINUE,
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
    text.push(link.sentence(p.appUrl));
    html.push(button(p.appUrl, link.button));
  }
  return compose(p.to, subject, text, html);
}

export function requirementReviewMail(
  p: Recipient & { type: string; reviewStatus: string; note: string | null },
): MailMessage {
  const name = documentName(p.type);
  const accepted = p.reviewStatus === "APPROVED";
  const decision = reviewWords(p.reviewStatus);
  const next = accepted
    ? "Nothing more is needed for this document."
    : "Upload a new file for it in your onboarding requirements.";
  return decisionMail(p, `Your ${name} ${decision}`, `Your ${name} ${decision}.`, p.note, next);
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
    `Your membership fee payment ${paymentWords(p.status)}`,
    outcome,
    p.note,
    next,
  );
}

export function oathTakenMail(
  p: Recipient & {
    uniqueId: string | null;
    takenAt: Date;
    place: string;
    certificate?: Buffer;
    /** The member's public page, APP_URL/profile/<uniqueId>: the certificate's QR code. */
    publicUrl?: string | null;
  },
): MailMessage {
  const outcome =
    `Your oath as an Associate Chaplain was recorded (${manilaDate(p.takenAt)}, ` +
    `${oneLine(p.place)}). Your onboarding is complete. Welcome!`;
  const certificate = p.certificate
    ? "Your certificate of membership is attached."
    : "Your certificate of membership is in the app.";
  const next = p.publicUrl ? `${certificate} Your public page: ${p.publicUrl}` : certificate;
  const message = decisionMail(
    p,
    "Welcome, Associate Chaplain: your onboarding is complete",
    p.uniqueId ? `${outcome} Member ID: ${p.uniqueId}.` : outcome,
    null,
    next,
    // Nothing is left to continue: the link leads to the membership itself.
    {
      sentence: (appUrl) => `Open ${appUrl} for your member ID card and certificate.`,
      button: "Open my membership",
    },
  );
  if (p.certificate) {
    message.attachments = [
      { filename: "certificate.pdf", content: p.certificate, contentType: "application/pdf" },
    ];
  }
  return message;
}
