import { createHmac, timingSafeEqual } from "node:crypto";

/** The path of the byte routes under the API base. */
export const FILES_PATH = "/api/v1/files";

/**
 * Signs and checks the expiring links of private files: an HMAC over the id and the expiry,
 * under a key derived from the JWT secret (so every replica of a deployment agrees, and no
 * further secret needs handling). A link names neither the owner nor the reader.
 */
export class FileLinks {
  private readonly key: Buffer;

  constructor(
    jwtSecret: string,
    private readonly ttlSeconds: number,
    /** PUBLIC_URL when set: links then work from another origin (an <img> in the web client). */
    private readonly origin = "",
  ) {
    this.key = createHmac("sha256", jwtSecret).update("chaplaincy file links v1").digest();
  }

  privateUrl(id: string, now = Date.now()): string {
    const expires = Math.floor(now / 1000) + this.ttlSeconds;
    return `${this.origin}${FILES_PATH}/${id}?expires=${expires}&signature=${this.sign(id, expires)}`;
  }

  publicUrl(id: string): string {
    return `${this.origin}${FILES_PATH}/public/${id}`;
  }

  /** True for an unaltered link to `id` that has not expired. */
  verify(id: string, expires: unknown, signature: unknown, now = Date.now()): boolean {
    if (typeof expires !== "string" || typeof signature !== "string") return false;
    if (!/^\d{1,12}$/.test(expires) || Number(expires) * 1000 <= now) return false;
    const expected = Buffer.from(this.sign(id, Number(expires)));
    const given = Buffer.from(signature);
    return given.length === expected.length && timingSafeEqual(given, expected);
  }

  private sign(id: string, expires: number): string {
    return createHmac("sha256", this.key).update(`${id}.${expires}`).digest("base64url");
  }
}

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
