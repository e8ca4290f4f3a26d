import net from "node:net";
import { startupProblem } from "../../src/startup-errors";
import { runServiceToExit } from "../support/run-to-exit";
import { TEST_JWT_SECRET } from "../support/test-app";

const STACK_LINE = /^\s+at /m;

describe("startupProblem", () => {
  it("says a port is taken and which to use instead", () => {
    const taken = Object.assign(new Error("listen EADDRINUSE: address already in use"), {
      code: "EADDRINUSE",
      address: "0.0.0.0",
      port: 4000,
    });
    const text = startupProblem(taken);
    expect(text).toMatch(/^Cannot start: port 4000 is already in use/);
    expect(text).toContain("PORT=4001 npm start");
    expect(text).not.toMatch(STACK_LINE);
  });

  it("says what to do when no database engine can be had, without a password", () => {
    for (const error of [
      new Error("FerretDB is not installed and no Go toolchain is on PATH to build it"),
      Object.assign(new Error("connect ECONNREFUSED 10.0.0.5:27017"), {
        name: "MongoServerSelectionError",
      }),
      new Error("database at mongodb://app:s3cret@db:27017 did not answer ping: timeout"),
    ]) {
      const text = startupProblem(error);
      expect(text).toMatch(/^Cannot start: no database to be had\./);
      expect(text).toContain("npm run engine:install");
      expect(text).toContain("MONGODB_URI=mongodb://127.0.0.1:27017");
      expect(text).not.toMatch(STACK_LINE);
      expect(text).not.toContain("s3cret");
    }
  });

  it("keeps the stack of anything else, which is a bug to report", () => {
    expect(startupProblem(new Error("something unforeseen"))).toMatch(STACK_LINE);
  });
});

describe("the service started on a taken port", () => {
  it("exits 1 with the friendly message and no stack trace", async () => {
    const blocker = net.createServer();
    await new Promise<void>((resolve) => blocker.listen(0, "127.0.0.1", resolve));
    const { port } = blocker.address() as net.AddressInfo;
    try {
      const { code, output } = await runServiceToExit({
        NODE_ENV: "development",
        HOST: "127.0.0.1",
        PORT: String(port),
        MONGODB_URI: process.env.TEST_MONGODB_URI,
        DB_NAME: "t_startup_errors",
        JWT_SECRET: TEST_JWT_SECRET,
        DATA_DIR: process.env.TEST_DATA_DIR ?? "data",
        LOG_LEVEL: "warn",
      });
      expect(code).toBe(1);
      expect(output).toContain(`Cannot start: port ${port} is already in use`);
      expect(output).not.toMatch(STACK_LINE);
    } finally {
      blocker.close();
    }
  }, 60_000);
});
