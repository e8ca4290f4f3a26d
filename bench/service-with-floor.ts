/**
 * The benchmark's service process: the service as src/main.ts starts it with WORKERS=1, and the
 * hand-written floor (floor-server.ts) beside it on FLOOR_PORT over the same services. Identical
 * copies of one build can run at different speeds for their whole life, so a floor in a process
 * of its own would make each ratio partly a comparison of two processes' luck.
 */
import "reflect-metadata";
import { loadConfig } from "../src/config";
import { createLogger } from "../src/logger";
import { openDatabase, startServer } from "../src/server";
import { createFloorApp, listenFloor } from "./floor-server";

async function main(): Promise<void> {
  const config = loadConfig();
  const log = createLogger(config);
  const floorPort = Number(process.env.FLOOR_PORT);
  if (!Number.isInteger(floorPort) || floorPort <= 0) throw new Error("FLOOR_PORT must be a port");
  const running = await startServer(config, log, await openDatabase(config));
  const floor = createFloorApp(running.services, config, log);
  listenFloor(floor, config, floorPort);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
