/**
 * The floor under Sofa and GraphQL execution: GET /offices written by hand in express, doing
 * the same work as the service's route (the same request shell of src/http/app.ts: request
 * id and log, security headers, CORS, rate limit; the same authentication and the same
 * OfficeService query over the same mongoose models), answered with the same JSON, and
 * nothing else: no GraphQL parse, validation or execution, no Sofa. It also holds what the
 * service process holds, its directories loaded and followed, so that its heap is as large and
 * its change-feed reads cover the same feeds (the members feed among them).
 */
import "reflect-metadata";
import express from "express";
import http from "node:http";
import { loadConfig } from "../src/config";
import { connectDatabase } from "../src/db/connection";
import { useRequestShell } from "../src/http/app";
import { expressServerOptions } from "../src/http/node-server";
import { createLogger } from "../src/logger";
import { resolveJwtSecret } from "../src/modules/auth/jwt-secret";
import { OfficeSortBy, SortOrder, type OfficeListArgs } from "../src/modules/offices/office.input";
import { warmUpDirectories } from "../src/server";
import { createServices } from "../src/services";

async function main(): Promise<void> {
  const config = loadConfig();
  const log = createLogger(config);
  const connection = await connectDatabase({ uri: config.mongodbUri!, dbName: config.dbName });
  const services = createServices(
    connection,
    config,
    resolveJwtSecret(config.jwtSecret, config.dataDir),
    log,
  );
  await warmUpDirectories(services, log);
  const app = express();
  useRequestShell(app, config, services, log);
  app.get("/ready", (_req, res) => {
    res.json({ ok: true });
  });
  const signedIn = async (req: express.Request, res: express.Response): Promise<boolean> => {
    const token = /^Bearer (.+)$/.exec(req.headers.authorization ?? "")?.[1];
    try {
      if (!token) throw new Error("no token");
      await services.auth.authenticate(token);
      return true;
    } catch {
      res.status(401).json({ code: "UNAUTHENTICATED", message: "Sign in first" });
      return false;
    }
  };
  app.get("/offices", async (req, res) => {
    if (!(await signedIn(req, res))) return;
    const args = {
      page: Number(req.query.page ?? 1),
      limit: Number(req.query.limit ?? 10),
      sortBy: OfficeSortBy.createdAt,
      sortOrder: SortOrder.desc,
    } as OfficeListArgs;
    const page = await services.offices.list(args);
    res.json({ code: "OK", message: "Office titles", ...page });
  });
  app.get("/offices/:id", async (req, res) => {
    if (!(await signedIn(req, res))) return;
    res.json({
      code: "OK",
      message: "Office title",
      data: await services.offices.get(req.params.id),
    });
  });
  // The same node server as the service's (src/server.ts), so the floor pays what it pays.
  http.createServer(expressServerOptions(app), app).listen(config.port, config.host);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
