import type { NextFunction, Request, Response } from "express";
import { API_BASE } from "./rest/rest-api";

/** Static files of the explorers: public, the same for everyone, fine for a cache to keep. */
const CACHEABLE_PREFIXES = [`${API_BASE}/docs`, "/graphql/assets"];

/**
 * `Cache-Control: no-store` on every answer of the API and of /graphql. Answers carry tokens
 * and personal data, and telling which do per route would be one more list to keep true; a
 * shared or browser cache must keep none of them (ASVS V14.3.2 / 5.0 V14.2). The one
 * exception is declared on the operation: a `publicCache` read replaces it on its 200s.
 */
export function noStore(req: Request, res: Response, next: NextFunction): void {
  const path = req.path;
  const api = path === API_BASE || path.startsWith(`${API_BASE}/`) || path.startsWith("/graphql");
  if (api && !CACHEABLE_PREFIXES.some((prefix) => path.startsWith(prefix))) {
    res.setHeader("cache-control", "no-store");
  }
  next();
}
