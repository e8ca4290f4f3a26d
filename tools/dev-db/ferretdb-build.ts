import { execFile } from "node:child_process";
import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { findExecutable, projectRoot } from "./executables";
import { PATCHES, type Patch, type PatchName } from "./ferretdb-patches";

export { PATCH_NAMES, type PatchName } from "./ferretdb-patches";

const run = promisify(execFile);

const MODULE = "github.com/FerretDB/FerretDB";
/** v1.24.2 first (the design card's pin); older v1.2x tags only if it stops building. */
const VERSIONS = ["v1.24.2", "v1.24.1", "v1.24.0", "v1.23.1", "v1.23.0"];

/**
 * Names what a binary is built from (the versions tried, the patches but `without`, their
 * edits and added files): a binary is cached under this digest, so changing a patch builds
 * anew on the next start and a checkout of another branch finds its own build.
 */
export function ferretdbRecipe(without: readonly PatchName[] = []): string {
  const patches = PATCHES.filter((patch) => !without.includes(patch.name));
  const digest = crypto.createHash("sha256").update(JSON.stringify({ VERSIONS, patches }));
  for (const patch of patches) {
    for (const file of patch.files) digest.update(fs.readFileSync(patchFilePath(file)));
  }
  return digest.digest("hex").slice(0, 16);
}

function patchFilePath(file: string): string {
  return path.join(projectRoot(), "tools", "dev-db", "ferretdb", file);
}

/**
 * The machine's cache of built engines, outside any clone: a fresh clone (as CI makes) finds
 * the binary an earlier one built, and `git clean` does not throw it away.
 */
export function devDbCacheDir(): string {
  const base = process.env.XDG_CACHE_HOME || path.join(os.homedir(), ".cache");
  return path.join(base, "chaplaincy-dev-db");
}

/** Where the binary of today's recipe lives once built. */
export function ferretdbCachePath(): string {
  return path.join(devDbCacheDir(), ferretdbRecipe(), "ferretdb");
}

/** The binary of today's recipe, if this machine has built it. */
export function findFerretdb(): string | undefined {
  const cached = ferretdbCachePath();
  return fs.existsSync(cached) ? cached : undefined;
}

type Log = (message: string) => void;

/** Builds FerretDB v1 with every patch into the machine's cache (once per recipe). */
export async function installFerretdb(log: Log): Promise<string> {
  const target = ferretdbCachePath();
  await buildFerretdb({ target, without: [] }, log);
  return target;
}

export interface BuildOptions {
  target: string;
  /** Patches to leave out, to show what each one changes (scripts/ferretdb-without.ts). */
  without: readonly PatchName[];
}

/**
 * Builds FerretDB v1 into `target` with the local Go toolchain.
 *
 * Not `go install …@v1.24.2`: that asks the module proxy for the version list (refused by the
 * proxy reachable here) and builds a binary that panics because the release zip lacks the
 * generated build/version/version.txt. So: download the exact version, write that file, build.
 */
export async function buildFerretdb(options: BuildOptions, log: Log): Promise<void> {
  const build = async (source: FerretdbSource) => {
    log(`building FerretDB ${source.version} with ${source.go} (first run only, about a minute)`);
    fs.mkdirSync(path.dirname(options.target), { recursive: true });
    const partial = `${options.target}.${process.pid}.partial`;
    const compile = (extra: string[]) =>
      run(source.go, ["build", "-trimpath", ...extra, "-o", partial, "./cmd/ferretdb"], {
        cwd: source.dir,
        env: source.env,
        maxBuffer: 16 << 20,
      });
    try {
      await compile([]);
    } catch {
      // Newer Go releases reject some old dependencies' go:linkname use unless told not to check.
      await compile(["-ldflags=-checklinkname=0"]);
    }
    fs.renameSync(partial, options.target);
    log(`FerretDB ${source.version} installed at ${options.target}`);
  };
  await onFirstVersion(options.without, build, { nextVersionIfUseFails: true });
}

/** FerretDB's source tree with the patches applied, and how to run Go on it. */
export interface FerretdbSource {
  dir: string;
  version: string;
  go: string;
  /** What every Go command on this tree runs with, as the build does. */
  env: NodeJS.ProcessEnv;
}

/**
 * Runs `use` on the patched source the build would compile (the first version the patches
 * apply to), in a temporary folder removed afterwards, so the patches' Go tests run on what
 * the binary is built from. A failure of `use` is returned as it is, not retried on an older
 * version.
 */
export function withFerretdbSource<T>(
  without: readonly PatchName[],
  use: (source: FerretdbSource) => Promise<T>,
): Promise<T> {
  return onFirstVersion(without, use, { nextVersionIfUseFails: false });
}

async function onFirstVersion<T>(
  without: readonly PatchName[],
  use: (source: FerretdbSource) => Promise<T>,
  { nextVersionIfUseFails }: { nextVersionIfUseFails: boolean },
): Promise<T> {
  const go = findExecutable("go");
  if (!go) throw new Error("FerretDB is not installed and no Go toolchain is on PATH to build it");
  const env = { ...process.env, GOTOOLCHAIN: "local", GOFLAGS: "-mod=mod" };
  const patches = PATCHES.filter((patch) => !without.includes(patch.name));
  const failures: string[] = [];
  for (const version of VERSIONS) {
    let dir: string | undefined;
    try {
      dir = await patchedSource(go, version, env, patches);
    } catch (error) {
      failures.push(`${version}: ${lastLines(error)}`);
      continue;
    }
    try {
      return await use({ dir, version, go, env });
    } catch (error) {
      if (!nextVersionIfUseFails) throw error;
      failures.push(`${version}: ${lastLines(error)}`);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  }
  throw new Error(`FerretDB could not be built:\n${failures.join("\n")}`);
}

function lastLines(error: unknown): string {
  return (error as Error).message.trim().split("\n").slice(-5).join(" | ");
}

async function patchedSource(
  go: string,
  version: string,
  env: NodeJS.ProcessEnv,
  patches: Patch[],
): Promise<string> {
  const { stdout } = await run(go, ["mod", "download", "-json", `${MODULE}@${version}`], {
    env,
    maxBuffer: 1 << 20,
  });
  const moduleDir = (JSON.parse(stdout) as { Dir?: string }).Dir;
  if (!moduleDir) throw new Error(`go mod download gave no directory for ${MODULE}@${version}`);

  const workDir = fs.mkdtempSync(path.join(os.tmpdir(), "ferretdb-src-"));
  try {
    fs.cpSync(moduleDir, workDir, { recursive: true });
    makeWritable(workDir);
    fs.writeFileSync(path.join(workDir, "build", "version", "version.txt"), `${version}\n`);
    applyPatches(workDir, version, patches);
    return workDir;
  } catch (error) {
    fs.rmSync(workDir, { recursive: true, force: true });
    throw error;
  }
}

function applyPatches(workDir: string, version: string, patches: Patch[]): void {
  for (const patch of patches) {
    for (const edit of patch.edits) {
      const file = path.join(workDir, edit.file);
      const source = fs.readFileSync(file, "utf8");
      if (source.split(edit.from).length !== 2) {
        throw new Error(
          `${version}: ${edit.file} no longer has, once, the code ${patch.name} edits`,
        );
      }
      fs.writeFileSync(
        file,
        source.replace(edit.from, () => edit.to),
      );
    }
    for (const file of patch.files) fs.copyFileSync(patchFilePath(file), path.join(workDir, file));
  }
}

function makeWritable(dir: string): void {
  for (const entry of fs.readdirSync(dir, { withFileTypes: true, recursive: true })) {
    const full = path.join(entry.parentPath, entry.name);
    fs.chmodSync(full, entry.isDirectory() ? 0o755 : 0o644);
  }
  fs.chmodSync(dir, 0o755);
}
