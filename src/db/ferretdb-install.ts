import { execFile } from "node:child_process";
import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { findExecutable, projectRoot } from "./executables";

const run = promisify(execFile);

const MODULE = "github.com/FerretDB/FerretDB";
/** v1.24.2 first (the design card's pin); older v1.2x tags only if it stops building. */
const VERSIONS = ["v1.24.2", "v1.24.1", "v1.24.0", "v1.23.1", "v1.23.0"];

/**
 * A change to FerretDB's source. `files` are Go files of engine/ferretdb, which mirrors
 * FerretDB's tree: each is copied to the same path there. An edit's `from` must occur exactly
 * once in its file, so a FerretDB release that moved the code fails the build loudly.
 */
interface Patch {
  name: PatchName;
  files: string[];
  edits: { file: string; from: string; to: string }[];
}

export type PatchName = "id-index" | "id-pushdown" | "write-lock";

/**
 * Only what changes behaviour the service relies on; each has a test in
 * tests/db/ferretdb-engine.test.ts that fails without it. Patches kept for speed alone were
 * dropped (docs/decisions.md, "Data layer (issue 31)").
 */
const PATCHES: Patch[] = [
  {
    // FerretDB reads, updates and deletes a record by `_id` through `_ferretdb_sjson->'$._id'`
    // but builds the `_id` index on `_ferretdb_sjson->"_id"`. SQLite uses an expression index
    // only for the same expression, so every read by `_id` scanned the whole table. The same
    // JSON path spelled the way the index is built; stored data and indexes are unchanged.
    name: "id-index",
    files: [],
    edits: [
      {
        file: "internal/backends/sqlite/metadata/metadata.go",
        from: `IDColumn = DefaultColumn + "->'$._id'"`,
        to: `IDColumn = DefaultColumn + "->'_id'"`,
      },
    ],
  },
  {
    // `{_id: {$in: [...]}}` and `_id` beside a conditional update's precondition through the
    // same index (engine/ferretdb/internal/backends/sqlite/id_pushdown.go).
    name: "id-pushdown",
    files: ["internal/backends/sqlite/id_pushdown.go"],
    edits: ["whereClause =", "filterPushdown = true"].map((firstLine) => ({
      file: "internal/backends/sqlite/collection.go",
      from:
        'if params.Filter.Len() == 1 {\n\t\tv, _ := params.Filter.Get("_id")\n' +
        `\t\tswitch v.(type) {\n\t\tcase string, types.ObjectID:\n\t\t\t${firstLine}`,
      to:
        "if v := idCondition(params.Filter); v != nil {\n\t\tswitch v := v.(type) {\n" +
        "\t\tcase *types.Document:\n\t\t\twhereClause, args = idInClause(v)\n" +
        (firstLine.startsWith("filterPushdown")
          ? '\t\t\tfilterPushdown = whereClause != ""\n'
          : "") +
        `\t\tcase string, types.ObjectID:\n\t\t\t${firstLine}`,
    })),
  },
  {
    // The write commands of one collection one at a time
    // (engine/ferretdb/internal/handler/write_lock.go): FerretDB v1 reads a document, changes
    // it and writes it back with nothing held in between, so two conditional updates racing
    // on one document both succeeded and concurrent updates lost each other's changes.
    name: "write-lock",
    files: ["internal/handler/write_lock.go"],
    edits: ["Insert", "Update", "FindAndModify", "Delete"].map((command) => {
      const start = `func (h *Handler) Msg${command}(connCtx context.Context, msg *wire.OpMsg) (*wire.OpMsg, error) {\n`;
      return {
        file: `internal/handler/msg_${command.toLowerCase()}.go`,
        from: start,
        to: `${start}\tdefer serializeWrite(msg)()\n\n`,
      };
    }),
  },
];

export const PATCH_NAMES: readonly PatchName[] = PATCHES.map((patch) => patch.name);

/**
 * Names what the binary in .tools was built with; a different one is rebuilt. The digest
 * covers the edits and the added files, so changing either rebuilds on the next start.
 */
function recipe(): string {
  const digest = crypto.createHash("sha256").update(JSON.stringify(PATCHES));
  for (const patch of PATCHES) {
    for (const file of patch.files) digest.update(fs.readFileSync(patchFilePath(file)));
  }
  return `v1 + ${PATCH_NAMES.join(", ")}, ${digest.digest("hex").slice(0, 16)}`;
}

function patchFilePath(file: string): string {
  return path.join(projectRoot(), "engine", "ferretdb", file);
}

export function ferretdbToolPath(): string {
  return path.join(projectRoot(), ".tools", "bin", "ferretdb");
}

function recipePath(): string {
  return `${ferretdbToolPath()}.recipe`;
}

/** An already-built binary: the project's own (if built by this recipe), then PATH. */
export function findFerretdb(): string | undefined {
  const local = ferretdbToolPath();
  if (fs.existsSync(local) && readRecipe() === recipe()) return local;
  if (fs.existsSync(local)) return undefined;
  return findExecutable("ferretdb");
}

function readRecipe(): string | undefined {
  try {
    return fs.readFileSync(recipePath(), "utf8").trim();
  } catch {
    return undefined;
  }
}

type Log = (message: string) => void;

/** Builds FerretDB v1 with every patch into .tools/bin and stamps it with the recipe. */
export async function installFerretdb(log: Log): Promise<string> {
  const target = ferretdbToolPath();
  await buildFerretdb({ target, without: [] }, log);
  fs.writeFileSync(recipePath(), `${recipe()}\n`);
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
  const go = findExecutable("go");
  if (!go) throw new Error("FerretDB is not installed and no Go toolchain is on PATH to build it");
  const env = { ...process.env, GOTOOLCHAIN: "local", GOFLAGS: "-mod=mod" };
  const patches = PATCHES.filter((patch) => !options.without.includes(patch.name));
  const failures: string[] = [];
  for (const version of VERSIONS) {
    try {
      log(`building FerretDB ${version} with ${go} (first run only, about a minute)`);
      await buildVersion(go, version, env, patches, options.target);
      log(`FerretDB ${version} installed at ${options.target}`);
      return;
    } catch (error) {
      failures.push(
        `${version}: ${(error as Error).message.trim().split("\n").slice(-5).join(" | ")}`,
      );
    }
  }
  throw new Error(`FerretDB could not be built:\n${failures.join("\n")}`);
}

async function buildVersion(
  go: string,
  version: string,
  env: NodeJS.ProcessEnv,
  patches: Patch[],
  target: string,
): Promise<void> {
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
    fs.mkdirSync(path.dirname(target), { recursive: true });
    const partial = `${target}.${process.pid}.partial`;
    const build = (extra: string[]) =>
      run(go, ["build", "-trimpath", ...extra, "-o", partial, "./cmd/ferretdb"], {
        cwd: workDir,
        env,
        maxBuffer: 16 << 20,
      });
    try {
      await build([]);
    } catch {
      // Newer Go releases reject some old dependencies' go:linkname use unless told not to check.
      await build(["-ldflags=-checklinkname=0"]);
    }
    fs.renameSync(partial, target);
  } finally {
    fs.rmSync(workDir, { recursive: true, force: true });
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
