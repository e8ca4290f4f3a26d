import { createHmac, timingSafeEqual } from "node:crypto";

/** The path of the byte routes under the API base. */
export const FILES_PATH = "/api/v1/files";

/**
 * Signs and checks the expiring links of private files: an HMAC over the id, the expiry and,
 * when the link was rendered for someone whose reads are audited, that reader's id, under a key
 * derived from the JWT secret (so every replica of a deployment agrees, and no further secret
 * needs handling). The reader is signed so that nobody can drop it or put another in its place.
 */
export class FileLinks {
  private readonly key: Buffer;
  private readonly originOf: () => string;

  constructor(
    jwtSecret: string,
    private readonly ttlSeconds: number,
    /**
     * The service's own URL (src/service-url.ts), asked at each link: links then work from
     * another origin (an <img> in the web client). Empty: links relative to the service.
     */
    origin: string | (() => string) = "",
  ) {
    this.key = createHmac("sha256", jwtSecret).update("chaplaincy file links v1").digest();
    this.originOf = typeof origin === "function" ? origin : () => origin;
  }

  /** A link to `id` valid for the TTL from `now`; `reader` is named in it (and signed). */
  privateUrl(id: string, reader?: string, now = Date.now()): string {
    const expires = Math.floor(now / 1000) + this.ttlSeconds;
    const named = reader === undefined ? "" : `&reader=${reader}`;
    return `${this.originOf()}${FILES_PATH}/${id}?expires=${expires}${named}&signature=${this.sign(id, expires, reader)}`;
  }

  publicUrl(id: string): string {
    return `${this.originOf()}${FILES_PATH}/public/${id}`;
  }

  /**
   * A one-time upload link of the site's protocol (src/modules/files/site-uploads.service.ts),
   * valid for the TTL. Absolute: the browser PUTs to it from the site's own origin, so it names
   * the service's URL (or, with none, the origin the request came to). Its signed text differs from every file
   * link's, so neither can be made from the other.
   */
  ingestUrl(ticketId: string, requestOrigin: string, now = Date.now()) {
    const expires = Math.floor(now / 1000) + this.ttlSeconds;
    const signature = this.sign(`ingest.${ticketId}`, expires);
    const url = `${this.originOf() || requestOrigin}${FILES_PATH}/ingest/${ticketId}?expires=${expires}&signature=${signature}`;
    return { url, expiresAt: new Date(expires * 1000) };
  }

  /** Whether an ingest link to `ticketId` is unaltered and unexpired. */
  verifyIngest(ticketId: string, link: LinkQuery, now = Date.now()): boolean {
    return this.signedFor(`ingest.${ticketId}`, link, now, undefined);
  }

  /** A link as a client on another origin follows it: a relative one gets `requestOrigin`. */
  absolute(url: string, requestOrigin: string): string {
    return url.startsWith("/") ? `${requestOrigin}${url}` : url;
  }

  /**
   * For an unaltered link to `id` that has not expired: whom it was rendered for (null when it
   * names nobody). Undefined for any other link.
   */
  verify(id: string, link: LinkQuery, now = Date.now()): { reader: string | null } | undefined {
    const reader = link.reader === undefined ? undefined : readerOf(link.reader);
    if (reader === null || !this.signedFor(id, link, now, reader)) return undefined;
    return { reader: reader ?? null };
  }

  /** The link's expiry is well-formed and to come, and its signature is that of `id` and it. */
  private signedFor(id: string, link: LinkQuery, now: number, reader: string | undefined) {
    const { expires, signature } = link;
    if (typeof expires !== "string" || typeof signature !== "string") return false;
    if (!/^\d{1,12}$/.test(expires) || Number(expires) * 1000 <= now) return false;
    const expected = Buffer.from(this.sign(id, Number(expires), reader));
    const given = Buffer.from(signature);
    return given.length === expected.length && timingSafeEqual(given, expected);
  }

  private sign(id: string, expires: number, reader?: string): string {
    // Without a reader the signed text is the one links without readers always had.
    const signed = reader === undefined ? `${id}.${expires}` : `${id}.${expires}.${reader}`;
    return createHmac("sha256", this.key).update(signed).digest("base64url");
  }
}

/** The query of a signed link, as the request carried it (anything, until verified). */
export interface LinkQuery {
  expires?: unknown;
  signature?: unknown;
  reader?: unknown;
}

/** An account id: what a reader may be (anything else makes the link invalid). */
const READER = /^[\w-]{1,64}$/;

/** A well-formed reader, or null. */
const readerOf = (value: unknown): string | null =>
  typeof value === "string" && READER.test(value) ? value : null;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

export const isFileId = (value: string): boolean => UUID.test(value);

/**
 * The id a reference names: a bare id, or a `fileUrl` this service issued (private or public,
 * with or without its origin). Null for anything else.
 */
export function fileIdOf(ref: string): string | null {
  const trimmed = ref.trim().toLowerCase();
  if (isFileId(trimmed)) return trimmed;
  let pathname: string;
  try {
    pathname = new URL(trimmed, "http://relative.invalid").pathname;
  } catch {
    return null;
  }
  const match = /^\/api\/v1\/files\/(?:public\/)?([^/]+)$/.exec(pathname);
  return match && isFileId(match[1]) ? match[1] : null;
}
