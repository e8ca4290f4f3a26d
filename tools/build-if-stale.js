"use strict";
// Plain JavaScript: `npm start` runs it before anything is compiled.
/**
 * `npm start`'s build step: compiles (tsconfig.build.json) only when a source of dist/ changed
 * since the last build, so starting again with one setting changed does not wait for the
 * compiler. What counts: every file and folder under src/ and tools/dev-db/ (a folder's time
 * changes when a file in it is added, renamed or deleted), the tsconfig files and package.json.
 * The stamp dist/.build-stamp carries the time the last successful build started, so a file
 * saved during a build still counts as newer.
 */
const { execFileSync } = require("node:child_process");
const fs = require("node:fs");
const path = require("node:path");

const SOURCES = ["src", "tools/dev-db", "tsconfig.json", "tsconfig.build.json", "package.json"];
const STAMP = path.join("dist", ".build-stamp");

/** The newest modification time (ms) under `place`, folders included; 0 if it is absent. */
function newestUnder(place) {
  let stat;
  try {
    stat = fs.statSync(place);
  } catch {
    return 0;
  }
  let newest = stat.mtimeMs;
  if (stat.isDirectory()) {
    for (const entry of fs.readdirSync(place)) {
      newest = Math.max(newest, newestUnder(path.join(place, entry)));
    }
  }
  return newest;
}

/** Whether dist/ under `root` is older than any of its sources (or was never built). */
function isStale(root) {
  let built;
  try {
    built = fs.statSync(path.join(root, STAMP)).mtimeMs;
  } catch {
    return true;
  }
  return SOURCES.some((source) => newestUnder(path.join(root, source)) > built);
}

/** Runs `build` when dist/ is stale, then stamps it with the build's start; answers whether it built. */
function buildIfStale(root, build) {
  if (!isStale(root)) return false;
  const started = new Date();
  build();
  const stamp = path.join(root, STAMP);
  fs.mkdirSync(path.dirname(stamp), { recursive: true });
  fs.writeFileSync(stamp, `${started.toISOString()}\n`);
  fs.utimesSync(stamp, started, started);
  return true;
}

module.exports = { isStale, buildIfStale };

if (require.main === module) {
  const root = path.join(__dirname, "..");
  const tsc = require.resolve("typescript/bin/tsc");
  try {
    const built = buildIfStale(root, () =>
      execFileSync(process.execPath, [tsc, "-p", "tsconfig.build.json"], {
        cwd: root,
        stdio: "inherit",
      }),
    );
    if (!built) console.log("dist/ is up to date with src/ and tools/dev-db/: not compiling");
  } catch (error) {
    // The compiler has printed what is wrong; no stack of ours under it.
    process.exit(typeof error.status === "number" ? error.status : 1);
  }
}
