import type { IncomingMessage } from "node:http";
import type { Logger } from "pino";
import type { Config } from "../config";

/** Distinct refused origins named in the log; past this many, one more line says so and no more. */
const REFUSED_ORIGINS_LOGGED = 100;

/**
 * Which browser origins may call the API (docs/web-client.md): CORS_ORIGINS,
 * and outside production the origin of APP_URL as well, so the web client running beside a
 * development service works without configuration. A refused origin is logged once, with the
 * setting that would admit it: the developer whose site cannot call the API learns why from the
 * service's log rather than from a browser console that hides CORS failures' causes.
 */
export class CorsOrigins {
  /** For cors's `origin`: it answers with these and marks every answer `Vary: Origin`. */
  readonly list: string[];
  private readonly allowed: ReadonlySet<string>;
  private readonly refused = new Set<string>();

  constructor(
    private readonly config: Pick<Config, "corsOrigins" | "appUrl" | "nodeEnv">,
    private readonly log: Logger,
  ) {
    const origins = [...config.corsOrigins];
    if (config.nodeEnv !== "production") origins.push(new URL(config.appUrl).origin);
    this.list = [...new Set(origins)];
    this.allowed = new Set(origins);
  }

  /** Logs the request's Origin if it is refused (once per origin). */
  check(req: IncomingMessage): void {
    const origin = req.headers.origin;
    if (origin === undefined || this.allowed.has(origin)) return;
    // The explorers served by this service send their own origin: nothing was refused.
    if (!isSameOrigin(req, origin)) this.noteRefused(origin);
  }

  private noteRefused(origin: string): void {
    if (this.refused.has(origin) || this.refused.size > REFUSED_ORIGINS_LOGGED) return;
    this.refused.add(origin);
    if (this.refused.size > REFUSED_ORIGINS_LOGGED) {
      this.log.warn("CORS refused more browser origins; no further ones are logged");
      return;
    }
    const admissible = /^https?:\/\/[^/]+$/.test(origin);
    const setting = admissible
      ? `CORS_ORIGINS=${[...this.config.corsOrigins, origin].join(",")}`
      : undefined;
    this.log.warn(
      { origin, setting },
      admissible
        ? `CORS refused the browser origin ${origin}; to let it call the API, set ${setting}`
        : `CORS refused the browser origin ${origin}, which no setting admits`,
    );
  }
}

/** The Origin names the host the request was sent to, as a page of this service would. */
function isSameOrigin(req: IncomingMessage, origin: string): boolean {
  try {
    return new URL(origin).host === req.headers.host;
  } catch {
    return false;
  }
}
