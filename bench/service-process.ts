import { spawn } from "node:child_process";
import os from "node:os";
import path from "node:path";
import type { DevEngine as Engine } from "../tools/dev-db/engine";
import { freePort } from "../tests/support/free-port";
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
  const [port, floorPort] = [await freePort(), await freePort()];
  const child = spawn(process.execPath, ["dist/bench/service-with-floor.js"], {
    cwd: path.join(__dirname, ".."),
    env: {
      ...process.env,
      ...serviceEnv(engine, members),
      PORT: String(port),
      HOST: "127.0.0.1",
      FLOOR_PORT: String(floorPort),
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  const keep = (chunk: Buffer) => (output = (output + chunk.toString()).slice(-20_000));
  child.stdout.on("data", keep);
  child.stderr.on("data", keep);
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    child.kill("SIGTERM");
    const force = setTimeout(() => child.kill("SIGKILL"), 15_000);
    await exited;
    clearTimeout(force);
  };
  const [url, floorUrl] = [port, floorPort].map((one) => `http://127.0.0.1:${one}`);
  const deadline = Date.now() + 180_000;
  while (Date.now() < deadline && child.exitCode === null) {
    const health = await fetch(`${url}/api/v1/health`).catch(() => undefined);
    if (health?.status === 200) return { url, floorUrl, pid: child.pid!, stop };
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  await stop();
  throw new Error(`the service did not become ready on port ${port}:\n${output}`);
}
