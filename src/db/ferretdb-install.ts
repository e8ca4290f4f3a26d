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

/** FerretDB's wire-protocol module, copied into its source tree to be patched there. */
const WIRE_MODULE = "github.com/FerretDB/wire";
const WIRE_COPY = "patched/wire";

/**
 * FerretDB v1's SQLite backend reads, updates and deletes a record by `_id` through the
 * expression `_ferretdb_sjson->'$._id'`, but builds the `_id` index on `_ferretdb_sjson->"_id"`.
 * SQLite uses an expression index only for the same expression, so every primary-key lookup
 * scanned the whole table (2.3 s per lookup at 100 000 member records; `explain` said
 * "SCAN"). The first patch spells the lookup the way the index is built; the stored data and
 * the index are unchanged, so existing data directories keep working.
 *
 * The next two let a query (and its explain) for `{_id: {$in: [...]}}` use the same index
 * (ferretdb-patches/sqlite_id_in.go), so a page of records is one query rather than one per
 * record.
 *
 * The next two leave out FerretDB's lifetime tracking of its iterators outside its own debug
 * builds: every document iterated was registered in a pprof profile with a stack trace and a
 * finalizer that panics if it is never closed, about an eighth of the engine's CPU while it
 * served member pages.
 *
 * The next reads stored documents in one pass (ferretdb-patches/sjson_fast.go) before falling
 * back to FerretDB's own reader, which decoded every value several times over: half of the
 * engine's CPU while it served member pages.
 *
 * The next hands back a found document as it is when the query has no projection: FerretDB
 * applied the empty projection anyway, copying every document three times over (an eighth
 * of the engine's CPU while it served member pages). A document whose first field is not
 * `_id` still goes through the projection, which moves `_id` to the front.
 *
 * The next builds a reply without decoding it again in full to look for NaN values: FerretDB
 * checks what it receives for them, and what it stored passed that check, but it also checked
 * every reply it wrote, a seventh of its CPU while it served member pages. That code is in
 * FerretDB's wire module, so the build uses a copy of it inside FerretDB's source tree.
 *
 * The last four make the write commands of one collection run one at a time
 * (ferretdb-patches/write_lock.go): FerretDB v1 reads a document, changes it and writes it
 * back whole with nothing held in between, so two writes to one document at once lost one.
 */
const PATCHES = [
  {
    file: "internal/backends/sqlite/metadata/metadata.go",
    from: `IDColumn = DefaultColumn + "->'$._id'"`,
    to: `IDColumn = DefaultColumn + "->'_id'"`,
  },
  {
    file: "internal/backends/sqlite/collection.go",
    from: "switch v.(type) {\n\t\tcase string, types.ObjectID:\n\t\t\twhereClause =",
    to:
      "switch v := v.(type) {\n\t\tcase *types.Document:\n\t\t\twhereClause, args = idInClause(v)\n" +
      "\t\tcase string, types.ObjectID:\n\t\t\twhereClause =",
  },
  {
    file: "internal/backends/sqlite/collection.go",
    from: "switch v.(type) {\n\t\tcase string, types.ObjectID:\n\t\t\tfilterPushdown = true",
    to:
      "switch v := v.(type) {\n\t\tcase *types.Document:\n\t\t\twhereClause, args = idInClause(v)\n" +
      '\t\t\tfilterPushdown = whereClause != ""\n' +
      "\t\tcase string, types.ObjectID:\n\t\t\tfilterPushdown = true",
  },
  {
    file: "internal/util/resource/resource.go",
    from: "func Track(obj any, token *Token) {\n\tcheckArgs(obj, token)\n",
    to: "func Track(obj any, token *Token) {\n\tcheckArgs(obj, token)\n\n\tif !debugbuild.Enabled {\n\t\treturn\n\t}\n",
  },
  {
    file: "internal/util/resource/resource.go",
    from: "func Untrack(obj any, token *Token) {\n\tcheckArgs(obj, token)\n",
    to: "func Untrack(obj any, token *Token) {\n\tcheckArgs(obj, token)\n\n\tif !debugbuild.Enabled {\n\t\treturn\n\t}\n",
  },
  {
    file: "internal/handler/sjson/sjson.go",
    from: "func Unmarshal(data []byte) (*types.Document, error) {\n",
    to:
      "func Unmarshal(data []byte) (*types.Document, error) {\n" +
      "\tif doc, ok := fastUnmarshal(data); ok {\n\t\treturn doc, nil\n\t}\n\n",
  },
  {
    file: "internal/handler/common/projection_iterator.go",
    from: "\t_, doc, err := iter.iter.Next()\n\tif err != nil {\n\t\treturn unused, nil, lazyerrors.Error(err)\n\t}\n",
    to:
      "\t_, doc, err := iter.iter.Next()\n\tif err != nil {\n\t\treturn unused, nil, lazyerrors.Error(err)\n\t}\n\n" +
      '\tif iter.projection.Len() == 0 && doc.Command() == "_id" {\n\t\treturn unused, doc, nil\n\t}\n',
  },
  {
    file: `${WIRE_COPY}/op_msg.go`,
    from:
      "\tvar msg OpMsg\n\tif err = msg.SetSections(OpMsgSection{documents: []wirebson.RawDocument{raw}}); err != nil {\n" +
      "\t\treturn nil, lazyerrors.Error(err)\n\t}\n\n\treturn &msg, nil\n",
    to:
      "\tsections := []OpMsgSection{{documents: []wirebson.RawDocument{raw}}}\n" +
      "\tif err = checkSections(sections); err != nil {\n\t\treturn nil, lazyerrors.Error(err)\n\t}\n\n" +
      "\treturn &OpMsg{sections: sections}, nil\n",
  },
  ...["Insert", "Update", "FindAndModify", "Delete"].map((command) => {
    const start = `func (h *Handler) Msg${command}(connCtx context.Context, msg *wire.OpMsg) (*wire.OpMsg, error) {\n`;
    return {
      file: `internal/handler/msg_${command.toLowerCase()}.go`,
      from: start,
      to: `${start}\tdefer serializeWrite(msg)()\n\n`,
    };
  }),
];
/** Go files added to FerretDB's source, as `[file in src/db/ferretdb-patches, target dir]`. */
const ADDED_FILES = [
  ["sqlite_id_in.go", "internal/backends/sqlite"],
  ["sjson_fast.go", "internal/handler/sjson"],
  ["write_lock.go", "internal/handler"],
];
/**
 * Names what the binary in .tools was built with; a different one is rebuilt. The digest
 * covers the patches and the added files, so editing either rebuilds on the next start.
 */
function recipe(): string {
  const digest = crypto.createHash("sha256").update(JSON.stringify(PATCHES));
  for (const [name] of ADDED_FILES) digest.update(fs.readFileSync(addedFilePath(name)));
  return `v1 + ${PATCHES.length} patches + ${ADDED_FILES.length} files, ${digest.digest("hex").slice(0, 16)}`;
}

function addedFilePath(name: string): string {
  return path.join(projectRoot(), "src", "db", "ferretdb-patches", name);
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

/**
 * Builds FerretDB v1 into .tools/bin with the local Go toolchain.
 *
 * Not `go install …@v1.24.2`: that asks the module proxy for the version list (refused by the
 * proxy reachable here) and builds a binary that panics because the release zip lacks the
 * generated build/version/version.txt. So: download the exact version, write that file, build.
 */
export async function installFerretdb(log: Log): Promise<string> {
  const go = findExecutable("go");
  if (!go) throw new Error("FerretDB is not installed and no Go toolchain is on PATH to build it");
  const env = { ...process.env, GOTOOLCHAIN: "local", GOFLAGS: "-mod=mod" };
  const failures: string[] = [];
  for (const version of VERSIONS) {
    try {
      log(`building FerretDB ${version} with ${go} (first run only, about a minute)`);
      await buildVersion(go, version, env);
      log(`FerretDB ${version} installed at ${ferretdbToolPath()}`);
      return ferretdbToolPath();
    } catch (error) {
      failures.push(
        `${version}: ${(error as Error).message.trim().split("\n").slice(-5).join(" | ")}`,
      );
    }
  }
  throw new Error(`FerretDB could not be built:\n${failures.join("\n")}`);
}

async function buildVersion(go: string, version: string, env: NodeJS.ProcessEnv): Promise<void> {
  const moduleDir = await downloadModule(go, `${MODULE}@${version}`, env);

  const workDir = fs.mkdtempSync(path.join(os.tmpdir(), "ferretdb-src-"));
  try {
    fs.cpSync(moduleDir, workDir, { recursive: true });
    makeWritable(workDir);
    fs.writeFileSync(path.join(workDir, "build", "version", "version.txt"), `${version}\n`);
    await copyWireModule(go, workDir, env);
    applyPatches(workDir, version);
    const target = ferretdbToolPath();
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
    fs.writeFileSync(recipePath(), `${recipe()}\n`);
  } finally {
    fs.rmSync(workDir, { recursive: true, force: true });
  }
}

/** Copies the wire module FerretDB requires into its tree and points its go.mod at the copy. */
async function copyWireModule(go: string, workDir: string, env: NodeJS.ProcessEnv): Promise<void> {
  const goMod = path.join(workDir, "go.mod");
  const required = new RegExp(`^\\s*${WIRE_MODULE.replace(/[./]/g, "\\$&")} (v\\S+)`, "m").exec(
    fs.readFileSync(goMod, "utf8"),
  );
  if (!required) throw new Error(`FerretDB's go.mod does not require ${WIRE_MODULE}`);
  const moduleDir = await downloadModule(go, `${WIRE_MODULE}@${required[1]}`, env);
  const copy = path.join(workDir, WIRE_COPY);
  fs.cpSync(moduleDir, copy, { recursive: true });
  makeWritable(copy);
  fs.appendFileSync(goMod, `\nreplace ${WIRE_MODULE} => ./${WIRE_COPY}\n`);
}

function applyPatches(workDir: string, version: string): void {
  for (const patch of PATCHES) {
    const file = path.join(workDir, patch.file);
    const source = fs.readFileSync(file, "utf8");
    if (!source.includes(patch.from)) {
      throw new Error(`${version}: ${patch.file} no longer has the line the patch fixes`);
    }
    fs.writeFileSync(file, source.replace(patch.from, patch.to));
  }
  for (const [name, targetDir] of ADDED_FILES) {
    fs.copyFileSync(addedFilePath(name), path.join(workDir, targetDir, name));
  }
}

/** The module cache's folder of `module@version`, downloaded if need be. */
async function downloadModule(go: string, spec: string, env: NodeJS.ProcessEnv): Promise<string> {
  const { stdout } = await run(go, ["mod", "download", "-json", spec], { env, maxBuffer: 1 << 20 });
  const moduleDir = (JSON.parse(stdout) as { Dir?: string }).Dir;
  if (!moduleDir) throw new Error(`go mod download gave no directory for ${spec}`);
  return moduleDir;
}

function makeWritable(dir: string): void {
  for (const entry of fs.readdirSync(dir, { withFileTypes: true, recursive: true })) {
    const full = path.join(entry.parentPath, entry.name);
    fs.chmodSync(full, entry.isDirectory() ? 0o755 : 0o644);
  }
  fs.chmodSync(dir, 0o755);
}
