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
const PACKAGE = "./internal/handler/sjson/";

const withGo = findExecutable("go") ? test : test.skip;

/**
 * Go's fuzzing engine fails by itself on a loaded machine: at the end of -fuzztime with a bare
 * "context deadline exceeded" (golang/go#51484), or calling a slow worker hung and writing the
 * input it had (golang/go#56238). Such a run's written input is run again alone, and only an
 * input that fails then is a finding; so is every other failure.
 */
function engineFailure(output: string): { input?: string } | null {
  if (/--- FAIL: (?!FuzzFastReader )/.test(output)) return null;
  const written = /Failing input written to testdata\/fuzz\/FuzzFastReader\/(\w+)/.exec(output);
  if (written)
    return /fuzzing process hung or terminated unexpectedly/.test(output)
      ? { input: written[1] }
      : null;
  return /^\s+context deadline exceeded$/m.test(output) ? {} : null;
}

withGo(
  "the one-pass reader reads every document as FerretDB's own reader does, or leaves it to it",
  async () => {
    const output = await withFerretdbSource([], async (source) => {
      // FerretDB's test helpers look for the repository's .git folder; the release has none.
      fs.mkdirSync(path.join(source.dir, ".git"));
      const go = (args: string[]) =>
        run(source.go, ["test", "-count=1", "-trimpath", ...args, PACKAGE], {
          cwd: source.dir,
          env: source.env,
          maxBuffer: 64 << 20,
        }).then(
          ({ stdout, stderr }) => ({ ok: true, output: `${stdout}${stderr}` }),
          ({ stdout = "", stderr = "" }: { stdout?: string; stderr?: string }) => ({
            ok: false,
            output: `${stdout}${stderr}`,
          }),
        );
      // One fuzzing worker: jest runs another test file on the other core meanwhile.
      const fuzz = ["-fuzz=^FuzzFastReader$", `-fuzztime=${FUZZ_TIME}`, "-parallel=1"];
      const fuzzed = await go(fuzz);
      const failure = fuzzed.ok ? null : engineFailure(fuzzed.output);
      const alone = failure?.input && (await go([`-run=^FuzzFastReader$/^${failure.input}$`]));
      if (fuzzed.ok || (failure && (!alone || alone.ok))) return fuzzed.output;
      throw new Error(`go test ${fuzz.join(" ")} failed:\n${fuzzed.output.slice(-8000)}`);
    });
    // FerretDB's own tests of the package passed, and the fuzzer ran beyond its seeds.
    expect(output).not.toMatch(/--- FAIL: (?!FuzzFastReader )/);
    expect(output).toMatch(/fuzz: elapsed: \d+s, execs: [1-9]/);
  },
  480_000,
);
