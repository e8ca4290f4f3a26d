/**
 * The one-pass document reader the embedded FerretDB is built with (patch `fast-reader` of
 * tools/dev-db/ferretdb-patches.ts) is kept for speed alone, so it may never read a stored document
 * differently from FerretDB's own reader. Its Go test
 * (tools/dev-db/ferretdb/internal/handler/sjson/fast_reader_test.go) compares the two on a corpus of
 * every type FerretDB stores and on what a fuzzer derives from it; this runs that test, with
 * FerretDB's own tests of the package, on the patched source the binary is built from.
 *
 * The first run compiles FerretDB's packages for testing and fuzzing; later runs reuse Go's
 * build cache (hence -trimpath: the source sits in a new temporary folder each time).
 */
import { execFile } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { promisify } from "node:util";
import { findExecutable } from "../../tools/dev-db/executables";
import { withFerretdbSource } from "../../tools/dev-db/ferretdb-build";

const run = promisify(execFile);

const FUZZ_TIME = "20s";

const withGo = findExecutable("go") ? test : test.skip;

withGo(
  "the one-pass reader reads every document as FerretDB's own reader does, or leaves it to it",
  async () => {
    const output = await withFerretdbSource([], async (source) => {
      // FerretDB's test helpers look for the repository's .git folder; the release has none.
      fs.mkdirSync(path.join(source.dir, ".git"));
      const args = [
        "test",
        "-count=1",
        "-trimpath",
        "-fuzz=^FuzzFastReader$",
        `-fuzztime=${FUZZ_TIME}`,
        "./internal/handler/sjson/",
      ];
      try {
        const { stdout, stderr } = await run(source.go, args, {
          cwd: source.dir,
          env: source.env,
          maxBuffer: 64 << 20,
        });
        return `${stdout}${stderr}`;
      } catch (error) {
        const { stdout = "", stderr = "" } = error as { stdout?: string; stderr?: string };
        throw new Error(`go ${args.join(" ")} failed:\n${stdout.slice(-8000)}${stderr}`);
      }
    });
    expect(output).toMatch(/^ok\s+github\.com\/FerretDB\/FerretDB\/internal\/handler\/sjson/m);
    // The fuzzer ran, beyond its seeds.
    expect(output).toMatch(/fuzz: elapsed: \d+s, execs: [1-9]/);
  },
  480_000,
);
