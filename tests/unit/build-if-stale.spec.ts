/**
 * `npm start` compiles only when dist/ is older than its sources (tools/build-if-stale.js): a
 * second start with nothing changed does not wait for the compiler; any change, addition or
 * removal under src/ or tools/dev-db/ (or of the build's settings) compiles again.
 */
import { spawn, spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import packageJson from "../../package.json";

// eslint-disable-next-line @typescript-eslint/no-require-imports
const { buildIfStale, isStale } = require("../../tools/build-if-stale.js") as {
  buildIfStale: (root: string, build: () => void) => boolean;
  isStale: (root: string) => boolean;
};

/** A project folder whose files all date from `at` (seconds since the epoch). */
function project(at: number): string {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), "build-if-stale-"));
  const files = [
    "src/main.ts",
    "src/modules/a.ts",
    "tools/dev-db/start.ts",
    "scripts/seed-demo.ts",
    "tsconfig.json",
    "tsconfig.build.json",
    "package.json",
  ];
  for (const file of files) {
    fs.mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
    fs.writeFileSync(path.join(root, file), "// source\n");
  }
  for (const place of [...files, "src/modules", "src", "tools/dev-db", "tools", "scripts"])
    fs.utimesSync(path.join(root, place), at, at);
  return root;
}

const past = Date.now() / 1000 - 3600;

/** The last build as if it ran a minute after the sources were written, long before now. */
const builtAMinuteLater = (root: string) =>
  fs.utimesSync(path.join(root, "dist/.build-stamp"), past + 60, past + 60);
let builds = 0;
const build = () => {
  builds += 1;
};

beforeEach(() => {
  builds = 0;
});

describe("npm start's build step", () => {
  it("is what npm start runs before the service, and the scripts before theirs", () => {
    expect(packageJson.scripts.start).toBe(
      "node tools/build-if-stale.js && node dist/tools/dev-db/start.js",
    );
    for (const [name, script] of [
      ["seed:demo", "seed-demo"],
      ["mock", "mock"],
      ["data-key:rotate", "rotate-data-key"],
    ]) {
      expect((packageJson.scripts as Record<string, string>)[name]).toBe(
        `node tools/build-if-stale.js && node dist/scripts/${script}.js`,
      );
    }
  });

  it("builds a fresh clone, then not again while nothing changed", () => {
    const root = project(past);
    expect(isStale(root)).toBe(true);
    expect(buildIfStale(root, build)).toBe(true);
    expect(buildIfStale(root, build)).toBe(false);
    expect(builds).toBe(1);
  });

  it.each([
    [
      "a changed source",
      (root: string) => fs.writeFileSync(path.join(root, "src/modules/a.ts"), "x"),
    ],
    ["a new source", (root: string) => fs.writeFileSync(path.join(root, "src/b.ts"), "x")],
    ["a removed source", (root: string) => fs.rmSync(path.join(root, "src/modules/a.ts"))],
    [
      "the launcher",
      (root: string) => fs.writeFileSync(path.join(root, "tools/dev-db/start.ts"), "x"),
    ],
    ["a script", (root: string) => fs.writeFileSync(path.join(root, "scripts/seed-demo.ts"), "x")],
    [
      "the build settings",
      (root: string) => fs.writeFileSync(path.join(root, "tsconfig.json"), "{}"),
    ],
  ])("builds again after %s", (_what, change) => {
    const root = project(past);
    buildIfStale(root, build);
    builtAMinuteLater(root);
    change(root);
    expect(isStale(root)).toBe(true);
    expect(buildIfStale(root, build)).toBe(true);
    expect(builds).toBe(2);
  });

  it("counts a file saved while the compiler ran as newer than the build", () => {
    const root = project(past);
    buildIfStale(root, () => {
      // Past the file system's clock tick, as a person's save during a build always is.
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 50);
      fs.writeFileSync(path.join(root, "src/main.ts"), "saved meanwhile");
    });
    expect(isStale(root)).toBe(true);
  });

  it("leaves no stamp when the build fails, so the next start compiles again", () => {
    const root = project(past);
    expect(() =>
      buildIfStale(root, () => {
        throw new Error("compile error");
      }),
    ).toThrow("compile error");
    expect(isStale(root)).toBe(true);
  });

  it("lets one builder at a time compile: one that waited finds dist/ fresh", async () => {
    const root = project(past);
    const other = spawn(process.execPath, [
      "-e",
      `require(${JSON.stringify(path.resolve("tools/build-if-stale.js"))}).buildIfStale(` +
        `${JSON.stringify(root)}, () => Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 1500))`,
    ]);
    const exited = new Promise((resolve) => other.once("exit", resolve));
    const lock = path.join(root, "dist/.build-lock/pid");
    while (!fs.existsSync(lock)) await new Promise((resolve) => setTimeout(resolve, 20));
    expect(buildIfStale(root, build)).toBe(false);
    expect(builds).toBe(0);
    expect(await exited).toBe(0);
    expect(isStale(root)).toBe(false);
  });

  it("takes over the lock of a builder that died holding it", () => {
    const root = project(past);
    const gone = spawnSync(process.execPath, ["-e", "process.stdout.write(String(process.pid))"]);
    fs.mkdirSync(path.join(root, "dist/.build-lock"), { recursive: true });
    fs.writeFileSync(path.join(root, "dist/.build-lock/pid"), gone.stdout.toString());
    expect(buildIfStale(root, build)).toBe(true);
    expect(builds).toBe(1);
    expect(fs.existsSync(path.join(root, "dist/.build-lock"))).toBe(false);
  });
});
