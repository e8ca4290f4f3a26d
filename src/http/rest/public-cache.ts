import { createHash } from "node:crypto";
import type { Request, RequestHandler, Response } from "express";

/** What every public cached read answers with (contract §12). */
export const PUBLIC_CACHE_CONTROL = "public, max-age=60";

/** The per-IP public-read bucket, taken before the route reads its arguments or the database. */
export function publicReadLimit(consume: (ip: string) => Promise<void>): RequestHandler {
  return async (req, _res, next) => {
    await consume(req.ip ?? req.socket.remoteAddress ?? "unknown");
    next();
  };
}

/** A strong validator: equal only for byte-identical answers. */
export function strongEtag(body: string): string {
  return `"${createHash("sha256").update(body).digest("base64url").slice(0, 32)}"`;
}

/**
 * RFC 9110 §13.1.2: If-None-Match compares weakly (`W/"x"` matches `"x"`), lists several
 * tags separated by commas, and `*` matches any current answer.
 */
export function matchesIfNoneMatch(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  if (header.trim() === "*") return true;
  return header.split(",").some((tag) => tag.trim().replace(/^W\//, "") === etag);
}

/**
 * A successful public read: cacheable by anyone for 60 s, with its ETag; a client that holds
 * the same bytes gets 304 and no body. Errors never come here and stay `no-store`.
 */
export function sendPublicRead(req: Request, res: Response, headers: Headers, body: string): void {
  const etag = strongEtag(body);
  const notModified = matchesIfNoneMatch(req.headers["if-none-match"], etag);
  res.status(notModified ? 304 : 200);
  headers.forEach((value, name) => {
    if (!notModified || !/^content-(type|length)$/i.test(name)) res.setHeader(name, value);
  });
  res.setHeader("cache-control", PUBLIC_CACHE_CONTROL);
  res.setHeader("etag", etag);
  res.end(notModified ? undefined : body);
}
