/**
 * Shows what a FerretDB patch is for: builds FerretDB without it into a folder of its own
 * (never the machine's cache, which other runs use), serves it, and runs jest against it.
 *
 *   npx ts-node --transpile-only tools/dev-db/ferretdb-without.ts <patch,...|all> [jest args]
 *
 * `all` builds FerretDB as released. A test of what the patch changes should then fail.
 */
import { spawn, spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { MongoClient } from "mongodb";
import { buildFerretdb, PATCH_NAMES, type PatchName } from "./ferretdb-build";

async function main(): Promise<number> {
  const [names = "", ...jestArgs] = process.argv.slice(2);
  const without = names === "all" ? [...PATCH_NAMES] : (names.split(",") as PatchName[]);
  const unknown = without.filter((name) => !PATCH_NAMES.includes(name));
  if (!names || unknown.length > 0) {
    console.error(`usage: ferretdb-without.ts <${PATCH_NAMES.join("|")}|all>[,...] [jest args]`);
    return 2;
  }
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `ferretdb-without-${without.join("-")}-`));
  const binary = path.join(dir, "ferretdb");
  await buildFerretdb({ target: binary, without }, (message) => console.log(message));

  fs.mkdirSync(path.join(dir, "sqlite"));
  fs.mkdirSync(path.join(dir, "state"));
  const socketPath = path.join(dir, "engine.sock");
  const uri = `mongodb://${encodeURIComponent(socketPath)}/`;
  const engine = spawn(
    binary,
    [
      "--handler=sqlite",
      `--sqlite-url=file:${dir}/sqlite/`,
      "--listen-addr=",
      `--listen-unix=${socketPath}`,
      `--state-dir=${dir}/state`,
      "--telemetry=disable",
      "--debug-addr=-",
      "--log-level=error",
    ],
    { stdio: "inherit" },
  );
  try {
    await waitForPing(uri);
    console.log(`FerretDB without ${without.join(", ")} on ${uri}; running jest`);
    const jest = spawnSync("npx", ["jest", ...jestArgs], {
      stdio: "inherit",
      env: { ...process.env, TEST_MONGODB_URI: uri },
    });
    return jest.status ?? 1;
  } finally {
    const exited = new Promise((resolve) => engine.once("exit", resolve));
    if (engine.exitCode === null && engine.signalCode === null) engine.kill();
    await exited;
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

async function waitForPing(uri: string): Promise<void> {
  for (let attempt = 0; ; attempt += 1) {
    const client = new MongoClient(uri, { directConnection: true, serverSelectionTimeoutMS: 500 });
    try {
      await client.db("admin").command({ ping: 1 });
      return;
    } catch (error) {
      if (attempt === 60) throw error;
      await new Promise((resolve) => setTimeout(resolve, 500));
    } finally {
      await client.close();
    }
  }
}

main().then(
  (status) => process.exit(status),
  (error: unknown) => {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  },
);
