import { spawn } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import path from "node:path";
import { TEST_JWT_SECRET } from "../support/test-app";
import { until } from "../support/until";

const root = path.join(__dirname, "..", "..");

async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** Resolves once `output()` matches, or rejects with what was printed after `ms`. */
const waitFor = (output: () => string, pattern: RegExp, ms: number) =>
  until(
    () => pattern.test(output()),
    () => `no ${String(pattern)} in:\n${output()}`,
    ms,
    250,
  );

describe("npm run dev", () => {
  it("serves with readable logs and restarts when a source file changes", async () => {
    const port = await freePort();
    // A process group of its own (npm, the shell, node, pino-pretty), ended together below.
    const child = spawn("npm", ["run", "dev"], {
      cwd: root,
      detached: true,
      env: {
        ...process.env,
        NODE_ENV: "development",
        HOST: "127.0.0.1",
        PORT: String(port),
        MONGODB_URI: process.env.TEST_MONGODB_URI,
        DB_NAME: "t_dev_mode",
        JWT_SECRET: TEST_JWT_SECRET,
        DATA_DIR: process.env.TEST_DATA_DIR ?? "data",
        LOG_LEVEL: "info",
      },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let output = "";
    child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
    try {
      await waitFor(
        () => output,
        /INFO: service listening\n\s+service: "chaplaincy-membership"/,
        90_000,
      );
      // pino-pretty's lines, not pino's JSON.
      expect(output).not.toMatch(/^\{"level"/m);
      const source = path.join(root, "src", "startup-errors.ts");
      const now = new Date();
      fs.utimesSync(source, now, now);
      await waitFor(() => output, /Restarting 'tools\/dev-db\/start\.ts'/, 30_000);
    } finally {
      if (child.pid) process.kill(-child.pid, "SIGTERM");
    }
  }, 150_000);
});
