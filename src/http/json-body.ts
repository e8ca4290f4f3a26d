import type { NextFunction, Request, Response } from "express";
import {
  BadRequestError,
  PayloadTooLargeError,
  UnsupportedMediaTypeError,
} from "../errors/app-errors";

/**
 * Reads a JSON object body with a size cap. An empty body counts as `{}` whatever its label;
 * anything else must be labelled `application/json` and be a JSON object, or is refused before
 * it reaches an operation.
 */
export function readJsonBody(limitBytes: number) {
  return (req: Request, _res: Response, next: NextFunction): void => {
    const declared = Number(req.headers["content-length"] ?? 0);
    if (declared > limitBytes) return next(tooLarge(limitBytes));
    const chunks: Buffer[] = [];
    let size = 0;
    let failed = false;
    req.on("data", (chunk: Buffer) => {
      if (failed) return;
      size += chunk.length;
      if (size > limitBytes) {
        failed = true;
        next(tooLarge(limitBytes));
        return;
      }
      chunks.push(chunk);
    });
    req.on("error", (error) => {
      if (!failed) next(error);
      failed = true;
    });
    req.on("end", () => {
      if (failed) return;
      try {
        req.body = parse(Buffer.concat(chunks).toString("utf8"), req.headers["content-type"]);
        next();
      } catch (error) {
        next(error);
      }
    });
  };
}

function parse(text: string, contentType: string | undefined): Record<string, unknown> {
  if (text.trim() === "") return {};
  if (!isJsonContentType(contentType)) throw notJson();
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new BadRequestError("The request body is not valid JSON");
  }
  if (value === null || typeof value !== "object" || Array.isArray(value)) {
    throw new BadRequestError("The request body must be a JSON object");
  }
  return value as Record<string, unknown>;
}

/**
 * `application/json`, with parameters (charset) allowed, and nothing else: an unlabelled body
 * or a look-alike (`application/x-evil+json`) is not parsed, since a type the browser may send
 * cross-site without a preflight must never reach an operation.
 */
export function isJsonContentType(contentType: string | undefined): boolean {
  return contentType !== undefined && /^application\/json\s*(;|$)/i.test(contentType.trim());
}

/**
 * For routes whose body another parser reads (/graphql): a request with a body must label it
 * `application/json`. Body-less requests (GET, or a POST with no content) pass.
 */
export function requireJsonContentType(req: Request, _res: Response, next: NextFunction): void {
  if (!hasBody(req) || isJsonContentType(req.headers["content-type"])) return next();
  next(notJson());
}

function hasBody(req: Request): boolean {
  const length = req.headers["content-length"];
  if (req.headers["transfer-encoding"] !== undefined) return true;
  return length !== undefined && Number(length) > 0;
}

function notJson(): UnsupportedMediaTypeError {
  return new UnsupportedMediaTypeError(
    "The request body must be JSON (Content-Type: application/json)",
  );
}

function tooLarge(limitBytes: number): PayloadTooLargeError {
  return new PayloadTooLargeError(`The request body exceeds ${Math.round(limitBytes / 1024)} KiB`);
}
