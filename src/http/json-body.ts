import type { NextFunction, Request, Response } from "express";
import {
  BadRequestError,
  PayloadTooLargeError,
  UnsupportedMediaTypeError,
} from "../errors/app-errors";

/**
 * Reads a JSON object body with a size cap. An empty body counts as `{}`; anything that is
 * not JSON (by content type or by content) is refused before it reaches an operation.
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
  if (contentType !== undefined && !/^application\/([\w.+-]+\+)?json\b/i.test(contentType)) {
    throw new UnsupportedMediaTypeError(
      "The request body must be JSON (Content-Type: application/json)",
    );
  }
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

function tooLarge(limitBytes: number): PayloadTooLargeError {
  return new PayloadTooLargeError(`The request body exceeds ${Math.round(limitBytes / 1024)} KiB`);
}
