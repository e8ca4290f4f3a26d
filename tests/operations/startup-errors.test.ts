import net from "node:net";
import { startupProblem } from "../../src/startup-errors";
import { DataFolderInUseError } from "../../tools/dev-db/ownership";
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

  it("says which file or folder may not be written, and what to do, without a stack", () => {
    const readOnly = Object.assign(new Error("EROFS: read-only file system, access '/srv/data'"), {
      code: "EROFS",
      path: "/srv/data",
    });
    const denied = Object.assign(new Error("EACCES: permission denied, open '/srv/data/x.log'"), {
      code: "EACCES",
      path: "/srv/data/x.log",
    });
    expect(startupProblem(readOnly)).toMatch(
      /^Cannot start: \/srv\/data is on a read-only file system\.\n[\s\S]*DATA_DIR/,
    );
    expect(startupProblem(denied)).toMatch(
      /^Cannot start: \/srv\/data\/x\.log may not be written by this user \(EACCES\)\./,
    );
    for (const error of [readOnly, denied]) expect(startupProblem(error)).not.toMatch(STACK_LINE);
  });

  it("says a data folder run by another launcher in its one sentence, without a stack", () => {
    const inUse = new DataFolderInUseError(
      "the development database in /srv/data is run by process 4242; stop it first, " +
        "or set MONGODB_URI to a database of your own",
    );
    expect(startupProblem(inUse)).toBe(
      "Cannot start: the development database in /srv/data is run by process 4242; stop it " +
        "first, or set MONGODB_URI to a database of your own.",
    );
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
