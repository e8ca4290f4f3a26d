/**
 * Without JWT_SECRET the embedded default keeps a generated secret in the data directory;
 * processes starting together on a fresh directory (a cluster, replicas on one volume) must
 * all end up with the same one.
 */
import { execFile } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { resolveJwtSecret } from "../../src/modules/auth/jwt-secret";

const root = path.join(__dirname, "..", "..");
const dirs: string[] = [];
const freshDir = () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "jwt-secret-"));
  dirs.push(dir);
  return dir;
};
afterAll(() => dirs.forEach((dir) => fs.rmSync(dir, { recursive: true, force: true })));

it("is generated once, private to its owner, and read back afterwards", () => {
  const dir = freshDir();
  const secret = resolveJwtSecret(undefined, dir);
  expect(secret.length).toBeGreaterThanOrEqual(32);
  expect(fs.statSync(path.join(dir, "jwt-secret")).mode & 0o777).toBe(0o600);
  expect(resolveJwtSecret(undefined, dir)).toBe(secret);
  expect(fs.readdirSync(dir)).toEqual(["jwt-secret"]);
});

it("yields to JWT_SECRET when one is configured", () => {
  const dir = freshDir();
  expect(resolveJwtSecret("configured-secret-configured-secret-0123", dir)).toBe(
    "configured-secret-configured-secret-0123",
  );
  expect(fs.readdirSync(dir)).toEqual([]);
});

it("is the same for several processes starting at once on a fresh data directory", async () => {
  const dir = path.join(freshDir(), "data");
  // The compiled module (built by jest's global set-up), as a started service loads it.
  const script = `process.stdout.write(require("./dist/src/modules/auth/jwt-secret").resolveJwtSecret(undefined, ${JSON.stringify(dir)}))`;
  const runs = await Promise.all(
    Array.from({ length: 6 }, () =>
      promisify(execFile)(process.execPath, ["-e", script], {
        cwd: root,
      }),
    ),
  );
  const secrets = new Set(runs.map((run) => run.stdout));
  expect(secrets.size).toBe(1);
  expect([...secrets][0]).toBe(fs.readFileSync(path.join(dir, "jwt-secret"), "utf8"));
  expect(fs.readdirSync(dir)).toEqual(["jwt-secret"]);
}, 60_000);
