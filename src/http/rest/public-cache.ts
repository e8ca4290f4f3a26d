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
export function sendPublicRead(
  req: Request,
  res: Response,
  headers: Headers,
  body: string,
  memory?: RevalidationMemory,
): void {
  const etag = strongEtag(body);
  memory?.remember(req.originalUrl, etag);
  const notModified = matchesIfNoneMatch(req.headers["if-none-match"], etag);
  res.status(notModified ? 304 : 200);
  headers.forEach((value, name) => {
    if (!notModified || !/^content-(type|length)$/i.test(name)) res.setHeader(name, value);
  });
  res.setHeader("cache-control", PUBLIC_CACHE_CONTROL);
  res.setHeader("etag", etag);
  res.end(notModified ? undefined : body);
}

/** How long a remembered ETag answers a revalidation without the read running again. */
const REVALIDATION_WINDOW_MS = 10_000;
const REMEMBERED_MAX = 2_000;

/**
 * The ETags of this process's recent public answers, by URL: a client revalidating what it
 * was answered within the last few seconds gets its 304 before arguments, GraphQL or the
 * database are touched, so a 304 costs a fraction of a 200. Only tags are kept, never answers.
 * Any request that may write (anything but GET/HEAD, /graphql included) forgets them all,
 * before and after it runs; what changes otherwise (another instance's write, a scheduled post
 * coming due) shows within the window, well inside the 60 s a cache may already keep an answer.
 */
export class RevalidationMemory {
  private generation = 0;
  private readonly tags = new Map<string, { etag: string; generation: number; at: number }>();

  constructor(private readonly windowMs = REVALIDATION_WINDOW_MS) {}

  /** App-level middleware: a possible write makes every remembered tag unusable. */
  readonly watchWrites: RequestHandler = (req, res, next) => {
    if (req.method !== "GET" && req.method !== "HEAD") {
      this.generation += 1;
      res.once("finish", () => {
        this.generation += 1;
      });
    }
    next();
  };

  /** Route middleware: 304 at once when the client holds the tag remembered for this URL. */
  readonly answerFromMemory: RequestHandler = (req, res, next) => {
    const header = req.headers["if-none-match"];
    const entry = header === undefined ? undefined : this.tags.get(req.originalUrl);
    const fresh =
      entry !== undefined &&
      entry.generation === this.generation &&
      Date.now() - entry.at < this.windowMs;
    if (!fresh || !matchesIfNoneMatch(header, entry.etag)) return next();
    res.status(304).setHeader("cache-control", PUBLIC_CACHE_CONTROL).setHeader("etag", entry.etag);
    res.end();
  };

  remember(url: string, etag: string): void {
    this.tags.delete(url);
    this.tags.set(url, { etag, generation: this.generation, at: Date.now() });
    // Oldest first in a Map: a flood of distinct query strings cannot grow it without bound.
    if (this.tags.size > REMEMBERED_MAX) this.tags.delete(this.tags.keys().next().value!);
  }
}
