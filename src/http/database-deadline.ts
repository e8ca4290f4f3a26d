import type http from "node:http";
import type { Connection } from "mongoose";
import { ServiceUnavailableError } from "../errors/app-errors";
import { toErrorResponse } from "../errors/error-mapper";

/** How long a request may go unanswered around a loss of the database (docs/decisions.md). */
export const DATABASE_DEADLINE_MS = 3_000;

export type DeadlineGuard = (req: http.IncomingMessage, res: http.ServerResponse) => void;

/**
 * The driver's time-outs fail every operation that meets a lost database within 5 s,
 * save one: a command written to a pooled connection whose socket the server has just closed
 * can wait for good (the mongodb driver awaits a 'drain' that a destroyed socket never emits,
 * and no time-out of its own covers that wait). So a request still unanswered
 * DATABASE_DEADLINE_MS after it arrived is answered 503 SERVICE_UNAVAILABLE here as soon as
 * the driver has lost its server in that time or just before (at once, or when it does). A
 * request that is merely slow on a database that stays up is left alone.
 */
export function databaseDeadline(
  connection: Connection,
  deadlineMs = DATABASE_DEADLINE_MS,
): DeadlineGuard {
  let lostAt = Number.NEGATIVE_INFINITY;
  /** Requests past their deadline, waiting to see whether the database is lost. */
  const overdue = new Set<http.ServerResponse>();
  const { status, body } = toErrorResponse(new ServiceUnavailableError(), { exposeDetail: false });
  const payload = JSON.stringify(body);
  const refuse = (res: http.ServerResponse) => {
    overdue.delete(res);
    if (res.headersSent || res.writableEnded) return;
    res.writeHead(status, { "content-type": "application/json", connection: "close" });
    res.end(payload);
  };
  const lost = () => {
    lostAt = Date.now();
    for (const res of overdue) refuse(res);
  };
  const client = connection.getClient();
  client.on("serverHeartbeatFailed", lost);
  client.on("connectionPoolCleared", lost);

  return (_req, res) => {
    const arrivedAt = Date.now();
    const timer = setTimeout(() => {
      if (lostAt >= arrivedAt - deadlineMs) refuse(res);
      else overdue.add(res);
    }, deadlineMs);
    timer.unref();
    res.once("close", () => {
      clearTimeout(timer);
      overdue.delete(res);
    });
  };
}
