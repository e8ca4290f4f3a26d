import { createHash } from "node:crypto";
import type { Request, RequestHandler, Response } from "express";

/** What every public cached read answers with: a minute old at most, revalidated by its ETag. */
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
  const opaque = etag.replace(/^W\//, "");
  return header.split(",").some((tag) => tag.trim().replace(/^W\//, "") === opaque);
}

/**
 * The validator of a read with sources: the operation, its checked arguments in a canonical
 * order, and the version of the collections it reads. Weak (`W/`): it names a version of the
 * answer, not its bytes; two 200s under one tag mean the same content but need not be
 * byte-identical (a write racing a read, another encoding), so it must not join byte ranges.
 */
export function versionEtag(operation: string, args: unknown, version: string): string {
  const key = `${operation}\n${canonicalJson(args)}\n${version}`;
  return `W/"${createHash("sha256").update(key).digest("base64url").slice(0, 32)}"`;
}

/** JSON with object keys sorted, so `?a=1&b=2` and `?b=2&a=1` name the same answer. */
function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(",")}]`;
  if (value !== null && typeof value === "object") {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, item]) => item !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([key, item]) => `${JSON.stringify(key)}:${canonicalJson(item)}`).join(",")}}`;
  }
  return JSON.stringify(value) ?? "null";
}

/** 304 for a client that holds the current version: no body, the same validators. */
export function sendNotModified(res: Response, etag: string): void {
  res.status(304);
  res.setHeader("cache-control", PUBLIC_CACHE_CONTROL);
  res.setHeader("etag", etag);
  res.end();
}

/**
 * A successful public read: cacheable by anyone for 60 s, with its ETag (the version's, or by
 * default a hash of the bytes); a client that holds the same gets 304 and no body. Errors never
 * come here and stay `no-store`.
 */
export function sendPublicRead(
  req: Request,
  res: Response,
  headers: Headers,
  body: string,
  etag = strongEtag(body),
): void {
  const notModified = matchesIfNoneMatch(req.headers["if-none-match"], etag);
  res.status(notModified ? 304 : 200);
  headers.forEach((value, name) => {
    if (!notModified || !/^content-(type|length)$/i.test(name)) res.setHeader(name, value);
  });
  res.setHeader("cache-control", PUBLIC_CACHE_CONTROL);
  res.setHeader("etag", etag);
  res.end(notModified ? undefined : body);
}
