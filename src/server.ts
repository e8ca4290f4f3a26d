import "reflect-metadata";
import http from "node:http";
import { setImmediate as nextTurn } from "node:timers/promises";
import type { Connection } from "mongoose";
import type { Config } from "./config";
import { connectDatabase } from "./db/connection";
import { ensureIndexes } from "./db/indexes";
import { migrateDatabase } from "./db/migrations";
import { buildAppSchema } from "./graphql/schema";
import { createApp } from "./http/app";
import { databaseDeadline } from "./http/database-deadline";
import { expressServerOptions } from "./http/node-server";
import type { Logger } from "./logger";
import { resolveJwtSecret } from "./modules/auth/jwt-secret";
import { ensureBootstrapAdmin } from "./modules/users/user-bootstrap";
import { createServices, type Composition, type Services } from "./services";

export interface RunningServer {
  server: http.Server;
  url: string;
  services: Services;
  /** What requests do not see: the tests' way to sign a token, read a sealed field, flush mail. */
  internals: Composition["internals"];
  /** Drains, then stops everything; `onDraining` runs as the listener stops taking connections. */
  close: (onDraining?: () => void) => Promise<void>;
}

/** Everything the service needs from a database connection onward; tests call this too. */
export async function startServer(
  config: Config,
  log: Logger,
  connection: Connection,
): Promise<RunningServer> {
  const composition = createServices(
    connection,
    config,
    resolveJwtSecret(config.jwtSecret, config.dataDir),
    log,
  );
  const { services } = composition;
  await migrateDatabase(connection, composition.migrations, log);
  await ensureIndexes(composition.models, log);
  if (config.redisUrl && !(await services.rateLimits.whenReady(5000))) {
    log.warn("Redis is not reachable yet; rate limits are per instance until it is");
  }
  await ensureBootstrapAdmin(composition.userRepository, config.admin, config.bcryptCost, log);
  const schema = await buildAppSchema();
  const parts = await createApp(config, services, schema, log);
  let draining = false;
  const served = new WeakSet<object>();
  const deadline = databaseDeadline(connection);
  const server = http.createServer(expressServerOptions(parts.app), (req, res) => {
    if (draining) {
      // A connection that already had its answer is a kept-alive one being reused: refuse, so
      // a proxy's pool cannot keep a stopping instance alive. A connection's first request was
      // on its way when the shutdown began: serve it, then close.
      if (served.has(req.socket)) return refuseWhileDraining(res);
      res.setHeader("connection", "close");
    }
    served.add(req.socket);
    deadline(req, res);
    parts.app(req, res);
  });
  // Keep-alive sockets must not outlive a shutdown; requests get a bounded time.
  server.requestTimeout = 30_000;
  server.headersTimeout = 10_000;
  // A taken port rejects here (main.ts says what to do) rather than crashing the process.
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(config.port, config.host, () => {
      server.off("error", reject);
      resolve();
    });
  });
  // Jobs only once the instance serves: a start that fails above leaves nothing polling.
  await composition.scheduler.start();
  const address = server.address();
  const port = typeof address === "object" && address ? address.port : config.port;
  composition.serviceUrl.listening(port);
  return {
    server,
    url: `http://127.0.0.1:${port}`,
    services,
    internals: composition.internals,
    close: async (onDraining) => {
      await readWhatArrived();
      draining = true;
      onDraining?.();
      await new Promise<void>((resolve) => {
        // Connections busy now become idle later; close each as soon as it is.
        const sweep = setInterval(() => server.closeIdleConnections(), 100);
        server.close(() => {
          clearInterval(sweep);
          resolve();
        });
        server.closeIdleConnections();
      });
      await parts.stop();
      await composition.close();
    },
  };
}

/**
 * A signal can be handled in the same turn of the event loop as connections and requests that
 * reached the machine before it, but which the service has not read yet (a busy or loaded
 * process reads late). Closing the listener then would reset the connections still waiting
 * to be accepted, and draining would close or refuse connections whose request is only
 * waiting to be read. Three turns: one accepts what waits in the listen backlog, the next
 * reads the requests on those connections, the last any that was split in two reads.
 */
async function readWhatArrived(): Promise<void> {
  for (let turn = 0; turn < 3; turn += 1) {
    // An immediate runs after the turn's I/O; the next turn polls for I/O again first.
    await nextTurn();
    await new Promise((resolve) => setTimeout(resolve, 0));
  }
}

function refuseWhileDraining(res: http.ServerResponse): void {
  res.writeHead(503, { "content-type": "application/json", connection: "close" });
  res.end(JSON.stringify({ code: "SERVICE_UNAVAILABLE", message: "The service is shutting down" }));
}

/** The configured database (MONGODB_URI), connected. */
export async function openDatabase(config: Config, log?: Logger): Promise<Connection> {
  const uri = config.mongodbUri;
  if (!uri) throw new Error("MONGODB_URI is not set");
  return connectDatabase({
    uri,
    dbName: config.dbName,
    onMonitorReplaced: (strandedForMs) =>
      log?.warn({ strandedForMs }, "database monitor stranded; reconnected the client"),
  });
}
