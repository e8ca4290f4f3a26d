import { execFile } from "node:child_process";
import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { findExecutable } from "../dev-db/executables";

const run = promisify(execFile);

const MODULE = "github.com/seaweedfs/seaweedfs";
/** The pseudo-version the Go module proxy reachable here serves (no release tags are listed). */
const VERSION = "v0.0.0-20261109003541-7506e5f91cd6";

/** Names what the binary is built from: a new pin builds anew, an old clone finds its own. */
export function weedRecipe(): string {
  return crypto
    .createHash("sha256")
    .update(JSON.stringify({ MODULE, VERSION }))
    .digest("hex")
    .slice(0, 16);
}

/** The machine's cache of built binaries, outside any clone (CI builds once per machine). */
export function objectStoreCacheDir(): string {
  const base = process.env.XDG_CACHE_HOME || path.join(os.homedir(), ".cache");
  return path.join(base, "chaplaincy-object-store");
}

export function weedCachePath(): string {
  return path.join(objectStoreCacheDir(), weedRecipe(), "weed");
}

/** A `weed` on PATH, else the binary of today's recipe if this machine has built it. */
export function findWeed(): string | undefined {
  const onPath = findExecutable("weed");
  if (onPath) return onPath;
  const cached = weedCachePath();
  return fs.existsSync(cached) ? cached : undefined;
}

/**
 * Builds SeaweedFS's `weed` into the cache. Not `go install`: the module's go.mod has replace
 * directives, which `go install pkg@version` refuses. So: download the exact version, copy it
 * somewhere writable, `go build ./weed` there.
 */
export async function installWeed(log: (message: string) => void): Promise<string> {
  const target = weedCachePath();
  const go = findExecutable("go");
  if (!go) throw new Error("SeaweedFS is not installed and no Go toolchain is on PATH to build it");
  const env = { ...process.env, GOTOOLCHAIN: "local", GOFLAGS: "-mod=mod" };
  const { stdout } = await run(go, ["mod", "download", "-json", `${MODULE}@${VERSION}`], {
    env,
    maxBuffer: 1 << 20,
  });
  const moduleDir = (JSON.parse(stdout) as { Dir?: string }).Dir;
  if (!moduleDir) throw new Error(`go mod download gave no directory for ${MODULE}@${VERSION}`);
  const workDir = fs.mkdtempSync(path.join(os.tmpdir(), "weed-src-"));
  try {
    fs.cpSync(moduleDir, workDir, { recursive: true });
    for (const entry of fs.readdirSync(workDir, { withFileTypes: true, recursive: true })) {
      const full = path.join(entry.parentPath, entry.name);
      fs.chmodSync(full, entry.isDirectory() ? 0o755 : 0o644);
    }
    log(`building SeaweedFS ${VERSION} with ${go} (first run only, several CPU-minutes)`);
    fs.mkdirSync(path.dirname(target), { recursive: true });
    const partial = `${target}.${process.pid}.partial`;
    await run(go, ["build", "-trimpath", "-o", partial, "./weed"], {
      cwd: workDir,
      env,
      maxBuffer: 16 << 20,
    });
    fs.renameSync(partial, target);
    log(`SeaweedFS installed at ${target}`);
    return target;
  } finally {
    fs.rmSync(workDir, { recursive: true, force: true });
  }
}
