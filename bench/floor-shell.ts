/**
 * The request shell of src/http/app.ts (request id and log, security headers, CORS, the
 * per-client rate limit) rebuilt for the floor, so that the floor differs from the service only
 * by Sofa and GraphQL. A copy rather than an export of the service's own, so that production
 * code exports nothing for the benchmark: when the service's shell changes, change this too.
 */
import cors from "cors";
import type { Express } from "express";
import helmet from "helmet";
import { randomUUID } from "node:crypto";
import pinoHttp from "pino-http";
import type { Config } from "../src/config";
import type { Logger } from "../src/logger";
import type { Services } from "../src/services";

export function useFloorShell(app: Express, config: Config, services: Services, log: Logger): void {
  app.disable("x-powered-by");
  app.set("etag", false);
  app.set("trust proxy", config.trustProxy);
  app.use(
    pinoHttp({
      logger: log,
      genReqId: (req, res) => {
        const incoming = req.headers["x-request-id"];
        const id =
          typeof incoming === "string" && /^[\w.-]{1,64}$/.test(incoming) ? incoming : randomUUID();
        res.setHeader("x-request-id", id);
        return id;
      },
      serializers: {
        req: (req: { id: unknown; method: string; url: string }) => ({
          id: req.id,
          method: req.method,
          url: req.url.split("?")[0],
        }),
      },
    }),
  );
  app.use(helmet());
  app.use(
    cors({
      origin: config.corsOrigins,
      credentials: true,
      exposedHeaders: ["x-request-id", "retry-after"],
    }),
  );
  app.use(async (req, _res, next) => {
    await services.rateLimits.consumeRequest(req.ip ?? req.socket.remoteAddress ?? "unknown");
    next();
  });
}
