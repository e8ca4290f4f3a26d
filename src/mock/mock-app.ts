import { expressMiddleware } from "@as-integrations/express5";
import cors from "cors";
import express, { type Express, type Request } from "express";
import helmet from "helmet";
import { randomUUID } from "node:crypto";
import pinoHttp from "pino-http";
import type { GraphQLSchema } from "graphql";
import type { Logger } from "pino";
import { NotFoundError } from "../errors/app-errors";
import { assertAccess } from "../graphql/access";
import { createGraphqlServer } from "../graphql/graphql-server";
import { errorResponder } from "../http/app";
import { favicon, graphiqlAssets, graphiqlPageOf, swaggerUi } from "../http/explorers";
import { serviceRoot } from "../http/operations";
import {
  describeMemberExport,
  MEMBER_EXPORT_PATH,
  MEMBER_EXPORT_ROLES,
} from "../http/member-export";
import { jsonBody } from "../http/json-body";
import { API_BASE, createRestApi } from "../http/rest/rest-api";
import { mockContextBuilder } from "./mock-context";
import { MOCK_BANNER, mockMemberCsv, markAsMock } from "./mock-marks";
import { mockSchema } from "./mock-schema";

const BODY_LIMIT_BYTES = 1024 * 1024;
const startedAt = Date.now();

export interface MockApp {
  app: Express;
  openApi: Record<string, unknown>;
  stop: () => Promise<void>;
}

/**
 * The service's HTTP surface over mocked data and no database: the same Sofa route table and
 * argument checks under /api/v1, the same /graphql server, both explorers and the same error
 * envelope. For building a client before the service is deployed.
 */
export async function createMockApp(
  schema: GraphQLSchema,
  log: Logger,
  seed?: string,
): Promise<MockApp> {
  const mocked = mockSchema(schema, seed);
  const buildContext = mockContextBuilder(log);
  const app = express();
  app.disable("x-powered-by");
  app.set("etag", false);
  app.use(markAsMock);
  app.use(
    pinoHttp({
      logger: log,
      genReqId: (_req, res) => withRequestId(res),
      serializers: {
        req: (req: { id: unknown; method: string; url: string }) => ({
          id: req.id,
          method: req.method,
          url: req.url.split("?")[0],
        }),
        res: (res: { statusCode: number }) => ({ statusCode: res.statusCode }),
      },
    }),
  );
  app.use(helmet({ contentSecurityPolicy: { directives: { upgradeInsecureRequests: null } } }));
  // A client under development runs on some other origin: the mock lets any call it.
  app.use(
    cors({ origin: true, credentials: true, exposedHeaders: ["x-request-id", "retry-after"] }),
  );

  const rest = createRestApi({
    schema: mocked,
    buildContext,
    exposeErrorDetail: true,
    bodyLimitBytes: BODY_LIMIT_BYTES,
    // The mock limits nothing: a client under development may call as often as it likes.
    consumePublicRead: async () => {},
    // No database, no stamps: every answer is a new version, so the mock never answers 304.
    publicVersion: () => Promise.resolve(randomUUID()),
  });
  describeMemberExport(rest.openApi);
  const api = express.Router();
  api.get("/", (_req, res) => {
    res.json({
      name: "Chaplaincy membership API (mock)",
      version: "1.0.0",
      graphql: "/graphql",
      docs: `${API_BASE}/docs`,
    });
  });
  api.get("/health", (_req, res) => {
    res.json({
      status: "ok",
      db: "up",
      uptime: Math.round((Date.now() - startedAt) / 1000),
      mock: true,
    });
  });
  api.use("/docs", swaggerUi(`${API_BASE}/openapi.json`, { banner: MOCK_BANNER }));
  api.get(MEMBER_EXPORT_PATH, async (req: Request, res) => {
    assertAccess(await buildContext(req, res), MEMBER_EXPORT_ROLES);
    res
      .type("text/csv")
      .attachment("members.csv")
      .send(mockMemberCsv(mocked, req.query, seed));
  });
  api.use(rest.router);
  app.use(API_BASE, api);
  app.get("/", serviceRoot);

  const graphql = createGraphqlServer({
    schema: mocked,
    introspection: true,
    exposeErrorDetail: true,
  });
  await graphql.start();
  app.get("/favicon.ico", favicon);
  app.use("/graphql/assets", graphiqlAssets());
  app.use(
    "/graphql",
    graphiqlPageOf({ banner: MOCK_BANNER }),
    ...jsonBody(BODY_LIMIT_BYTES, false),
    expressMiddleware(graphql, { context: ({ req, res }) => buildContext(req, res) }),
  );
  app.use((req: Request) => {
    throw new NotFoundError(`No route ${req.method} ${req.path}`);
  });
  app.use(errorResponder(true));
  return { app, openApi: rest.openApi, stop: () => graphql.stop() };
}

function withRequestId(res: express.Response | import("node:http").ServerResponse): string {
  const id = randomUUID();
  res.setHeader("x-request-id", id);
  return id;
}
