/**
 * A member's public page on the organisation's site (one URL for everything): the one
 * address printed as the QR code on every card and certificate, answered as `publicUrl` and
 * sent in mails. The site's page reads `GET /members/public/{uniqueId}`.
 */
export function publicProfileUrl(appUrl: string, uniqueId: string): string {
  return `${appUrl}/profile/${encodeURIComponent(uniqueId)}`;
}
