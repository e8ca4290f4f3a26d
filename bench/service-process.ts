import os from "node:os";
import path from "node:path";
import type { DevEngine as Engine } from "../tools/dev-db/engine";
import { freePort } from "../tests/support/free-port";
import { startServiceProcess } from "../tests/support/service-process";
import { BENCH_DATA_KEY, databaseOf } from "./dataset";

/** The service's heap cap in the benchmark, as docker-compose.yml sets it. */
export const HEAP_OPTIONS = "--max-old-space-size=256";

/** The service's environment over the database of `members` demo members. */
export function serviceEnv(engine: Pick<Engine, "uri">, members: number): Record<string, string> {
  return {
    NODE_ENV: "production",
    MONGODB_URI: engine.uri,
    DB_NAME: databaseOf(members),
    JWT_SECRET: "bench-secret-bench-secret-bench-secret-0123",
    DATA_KEY: BENCH_DATA_KEY,
    // Production refuses to start without them; the measured requests send no mail.
    SMTP_URL: "smtp://127.0.0.1:9",
    ALLOW_INSECURE_HTTP: "true",
    APP_URL: "https://members.example.org",
    CORS_ORIGINS: "none",
    // Request logs are I/O the hand-written floor does not do; warnings still show.
    LOG_LEVEL: "warn",
    BCRYPT_COST: "12",
    // One client hammering from one address: limits would turn the load into 429s.
    RATE_LIMIT_PER_MINUTE: "1000000",
    RATE_LIMIT_ACCOUNT_PER_HOUR: "1000000",
    RATE_LIMIT_PUBLIC_READS_PER_MINUTE: "1000000",
    RATE_LIMIT_UPLOADS_PER_HOUR: "1000000",
    FILE_MAX_PER_USER: "1000000",
    LOGIN_MAX_FAILURES: "1000",
    FILE_STORAGE_URL: `file://${path.join(os.tmpdir(), "chaplaincy-bench-files")}`,
    // A session's file link and access tokens serve every measurement at a count.
    FILE_LINK_TTL_SECONDS: String(7 * 24 * 3600),
    ACCESS_TOKEN_TTL_SECONDS: String(4 * 3600),
    // Without the cap V8 grows the heap far past the live data, and the memory target
    // would measure that.
    NODE_OPTIONS: HEAP_OPTIONS,
  };
}

export type ServiceWithFloor = Awaited<ReturnType<typeof startService>>;

/** The compiled service and the floor beside it (service-with-floor.ts), once healthy. */
export async function startService(engine: Engine, members: number) {
  const floorPort = await freePort();
  const service = await startServiceProcess(
    { ...serviceEnv(engine, members), HOST: "127.0.0.1", FLOOR_PORT: String(floorPort) },
    "benchFloor",
  );
  const floorUrl = `http://127.0.0.1:${floorPort}`;
  return { url: service.url, floorUrl, pid: service.child.pid!, stop: service.stop };
}
