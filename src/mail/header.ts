/** The small line above every mail's body, naming who writes. */
export const mailHeader = (name: string): string =>
  `<p style="margin:0 0 16px;font-size:14px;color:#52525b">${escapeText(name)}</p>`;

/** The header of a mail until the organisation's own name replaces it (mailer.ts, signMessage). */
export const DEFAULT_MAIL_HEADER = mailHeader("Chaplaincy Membership");

/** Text made safe inside HTML (the header and the signature are the organisation's own words). */
export function escapeText(value: string): string {
  return value.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
}
