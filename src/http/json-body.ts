import type { IncomingMessage } from "node:http";
import express, { type Request, type RequestHandler } from "express";
import {
  BadRequestError,
  PayloadTooLargeError,
  UnsupportedMediaTypeError,
} from "../errors/app-errors";
import { bodyTooLarge } from "../errors/byte-size";

/**
 * A JSON body reader: a body must be labelled `application/json` (charset allowed; a
 * look-alike such as `application/x-evil+json`, or a type a browser sends cross-site without a
 * preflight, is refused 415); its size and syntax are express.json's (413, 400, translated by
 * errorResponder). REST's must be an object; an empty one counts as `{}`.
 *
 * A body declared (Content-Length) over the limit is refused before any of it is read, and the
 * connection closed after the answer: express.json would read the whole declared body before
 * answering, holding a socket and a request slot for as long as the client takes to send it.
 * A UTF-8 byte order mark before the JSON is ignored (RFC 8259 §8.1; docs/security.md).
 */
export function jsonBody(limitBytes: number, objectOnly: boolean): RequestHandler[] {
  const isJson = (req: IncomingMessage) =>
    /^application\/json\s*(;|$)/i.test(req.headers["content-type"]?.trim() ?? "");
  const sent = (req: Request) =>
    req.headers["transfer-encoding"] !== undefined || Number(req.headers["content-length"]) > 0;
  return [
    (req, res, next) => {
      if (Number(req.headers["content-length"]) > limitBytes) {
        res.setHeader("connection", "close");
        return next(new PayloadTooLargeError(bodyTooLarge(limitBytes)));
      }
      if (!sent(req) || isJson(req)) return next();
      next(
        new UnsupportedMediaTypeError(
          "The request body must be JSON (Content-Type: application/json)",
        ),
      );
    },
    express.json({ limit: limitBytes, strict: !objectOnly, type: isJson }),
    (req, _res, next) => {
      if (!objectOnly) return next();
      const body: unknown = req.body === undefined ? {} : req.body;
      if (body === null || typeof body !== "object" || Array.isArray(body))
        return next(new BadRequestError("The request body must be a JSON object"));
      req.body = body;
      next();
    },
  ];
}
