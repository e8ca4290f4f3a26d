import os from "node:os";
import path from "node:path";
import type { DevEngine as Engine } from "../tools/dev-db/engine";
import { BENCH_DATA_KEY, databaseOf } from "./dataset";
import { freePort } from "../tests/support/free-port";
import { spawnServer, type Spawned } from "./processes";

/** The service's heap cap in the benchmark, as docker-compose.yml sets it. */
export const HEAP_OPTIONS = "--max-old-space-size=256";

const JWT_SECRET = "bench-secret-bench-secret-bench-secret-0123";

/** The service's environment over the database of `members` demo members. */
export function serviceEnv(
  engine: Pick<Engine, "uri">,
  members: number,
  extra: Record<string, string> = {},
): Record<string, string> {
  return {
    NODE_ENV: "production",
    MONGODB_URI: engine.uri,
    DB_NAME: databaseOf(members),
    JWT_SECRET,
    DATA_KEY: BENCH_DATA_KEY,
    // Production refuses to start without them; the measured requests send no mail.
    SMTP_URL: "smtp://127.0.0.1:9",
    ALLOW_INSECURE_HTTP: "true",
    APP_URL: "https://members.example.org",
    CORS_ORIGINS: "none",
    // Request logs are I/O the hand-written floor does not do; warnings still show.
    LOG_LEVEL: "warn",
    BCRYPT_COST: "12",
    // The benchmark is one client hammering from one address: limits would turn it into 429s.
    RATE_LIMIT_PER_MINUTE: "1000000",
    RATE_LIMIT_ACCOUNT_PER_HOUR: "1000000",
    RATE_LIMIT_PUBLIC_READS_PER_MINUTE: "1000000",
    RATE_LIMIT_UPLOADS_PER_HOUR: "1000000",
    FILE_MAX_PER_USER: "1000000",
    LOGIN_MAX_FAILURES: "1000",
    // Uploaded files outside the repository; a session's link must outlive a whole run.
    FILE_STORAGE_URL: `file://${path.join(os.tmpdir(), "chaplaincy-bench-files")}`,
    FILE_LINK_TTL_SECONDS: String(7 * 24 * 3600),
    // One session's access tokens serve every measurement at a count, which takes longer than
    // the default quarter of an hour.
    ACCESS_TOKEN_TTL_SECONDS: String(4 * 3600),
    // The heap cap docker-compose.yml sets: V8 otherwise grows the heap far past the live
    // data on a machine with plenty of memory, and the memory target would measure that.
    NODE_OPTIONS: HEAP_OPTIONS,
    ...extra,
  };
}

export interface ServiceWithFloor extends Spawned {
  floorUrl: string;
}

/**
 * The service (src/server.ts, as src/main.ts starts it with WORKERS=1) over the database of
 * `members` members, with the hand-written floor listening beside it in the same process
 * (bench/service-with-floor.ts): a ratio then compares the two routes in one heap, one JIT and
 * one process's share of the machine.
 */
export async function startService(engine: Engine, members: number): Promise<ServiceWithFloor> {
  const floorPort = await freePort();
  const service = await spawnServer(
    "dist/bench/service-with-floor.js",
    serviceEnv(engine, members, { FLOOR_PORT: String(floorPort) }),
    "/api/v1/health",
  );
  return { ...service, floorUrl: `http://127.0.0.1:${floorPort}` };
}
