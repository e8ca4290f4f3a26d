/**
 * `npm run mock`: the service's REST paths, /graphql and both explorers over made-up,
 * deterministic data and no database (src/mock), on PORT and HOST like the service. Any bearer
 * token is an administrator; POST /api/v1/auth/login answers one.
 */
import "reflect-metadata";
import { loadConfig } from "../src/config";
import { createLogger } from "../src/logger";
import { startMockServer } from "../src/mock/mock-server";
import { runWhenMain } from "./script-runner";

runWhenMain(module, async () => {
  const config = loadConfig();
  const mock = await startMockServer({
    port: config.port,
    host: config.host,
    log: createLogger(config),
  });
  console.log(
    `mock server on ${mock.url}: REST ${mock.url}/api/v1/docs, GraphQL ${mock.url}/graphql`,
  );
  const stop = () => void mock.close().then(() => process.exit(0));
  process.once("SIGINT", stop);
  process.once("SIGTERM", stop);
});
