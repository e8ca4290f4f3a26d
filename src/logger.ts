import pino, { type Logger } from "pino";
import type { Config } from "./config";

export type { Logger };

/** Paths pino blanks out wherever they appear, so secrets never reach the logs. */
const REDACT_PATHS = [
  "req.headers.authorization",
  "req.headers.cookie",
  'res.headers["set-cookie"]',
  "*.password",
  "*.confirmPassword",
  "*.currentPassword",
  "*.accessToken",
  "*.refreshToken",
  "*.token",
];

/** Structured JSON lines on stdout, or on `destination` (the tests keep each app's in a file). */
export function createLogger(
  config: Pick<Config, "logLevel" | "nodeEnv">,
  destination?: pino.DestinationStream,
): Logger {
  const options = {
    level: config.logLevel,
    base: { service: "chaplaincy-membership" },
    redact: { paths: REDACT_PATHS, censor: "[redacted]" },
    timestamp: pino.stdTimeFunctions.isoTime,
  };
  return destination ? pino(options, destination) : pino(options);
}
