import { spawn } from "node:child_process";
import path from "node:path";
import { freePort } from "../support/free-port";
import { COMPILED, ensureServiceBuilt } from "../support/service-build";
import { TEST_JWT_SECRET } from "../support/test-app";
import { eventually } from "../support/until";

const root = path.join(__dirname, "..", "..");

describe("the service process", () => {
  it("stops cleanly on SIGTERM: exit 0, after logging that it stopped", async () => {
    await ensureServiceBuilt();
    const port = await freePort();
    const child = spawn(process.execPath, [COMPILED.service], {
      cwd: root,
      env: {
        ...process.env,
        PORT: String(port),
        HOST: "127.0.0.1",
        MONGODB_URI: process.env.TEST_MONGODB_URI,
        DB_NAME: `t_shutdown_${port}`,
        JWT_SECRET: TEST_JWT_SECRET,
        NODE_ENV: "development",
        LOG_LEVEL: "info",
      },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let output = "";
    child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
    const exited = new Promise<number | null>((resolve) =>
      child.once("exit", (code) => resolve(code)),
    );

    try {
      const healthy = await eventually(
        () =>
          fetch(`http://127.0.0.1:${port}/api/v1/health`).then(
            (r) => r.ok,
            () => false,
          ),
        Boolean,
        30_000,
      );
      expect(healthy).toBe(true);

      const inFlight = fetch(`http://127.0.0.1:${port}/api/v1/branch-service`);
      await new Promise((resolve) => setTimeout(resolve, 20));
      const signalledAt = Date.now();
      child.kill("SIGTERM");
      expect((await inFlight).status).toBe(200);
      expect(await exited).toBe(0);
      expect(Date.now() - signalledAt).toBeLessThan(10_000);
      expect(output).toContain('"msg":"stopped"');
    } finally {
      // A failed expectation must not leave the service running after the test.
      if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
    }
  }, 60_000);
});
