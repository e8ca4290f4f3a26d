import { execFile } from "node:child_process";
import path from "node:path";

/*
 * The tests spawn the service compiled, as operators run it (the Dockerfile's
 * `node dist/src/main.js`, `npm start`'s `node dist/tools/dev-db/start.js`): through ts-node every
 * start compiled the sources again, seconds of CPU each on a small machine. dist/ is built by
 * `npm start`'s own step (tools/build-if-stale.js), once per run by jest's global set-up, and
 * again only when a source changed since.
 */

const root = path.join(__dirname, "..", "..");

// eslint-disable-next-line @typescript-eslint/no-require-imports
const { isStale } = require("../../tools/build-if-stale.js") as {
  isStale: (root: string) => boolean;
};

/** The compiled entry points, relative to the project's folder. */
export const COMPILED = {
  /** src/main.ts */
  service: "dist/src/main.js",
  /** tools/dev-db/start.ts, what `npm start` runs */
  launcher: "dist/tools/dev-db/start.js",
  /** scripts/seed-demo.ts, what `npm run seed:demo` runs */
  seedDemo: "dist/scripts/seed-demo.js",
  /** bench/service-with-floor.ts, compiled by `npm run bench` itself (tsconfig.bench.json) */
  benchFloor: "dist/bench/service-with-floor.js",
} as const;

let building: Promise<void> | undefined;

/**
 * Compiles dist/ if a source changed since its last build (tools/build-if-stale.js, which lets
 * one builder at a time compile); resolves at once when it is fresh. Rejects with the compiler's
 * output when the build fails; a process does not try again after a failure.
 */
export function ensureServiceBuilt(log?: (message: string) => void): Promise<void> {
  if (building) return building;
  if (!isStale(root)) return Promise.resolve();
  log?.("compiling dist/ (tools/build-if-stale.js) for the service processes the tests spawn");
  building = new Promise<void>((resolve, reject) => {
    execFile(
      process.execPath,
      [path.join("tools", "build-if-stale.js")],
      { cwd: root },
      (error, stdout, stderr) => {
        if (error) reject(new Error(`compiling dist/ failed:\n${stdout}${stderr}`));
        else resolve();
      },
    );
  });
  // After a success, a source changed later is compiled again; a failure is kept.
  building.then(
    () => (building = undefined),
    () => undefined,
  );
  return building;
}
