"use strict";
// Plain JavaScript: `npm start` runs it before anything is compiled.
/**
 * `npm start`'s and `npm run seed:demo`'s build step: compiles (tsconfig.build.json) only when a source of dist/ changed
 * since the last build, so starting again with one setting changed does not wait for the
 * compiler. What counts: every file and folder under src/, tools/dev-db/ and scripts/ (a folder's time
 * changes when a file in it is added, renamed or deleted), the tsconfig files and package.json.
 * The stamp dist/.build-stamp carries the time the last successful build started, so a file
 * saved during a build still counts as newer.
 *
 * The tests run the service from dist/ too (tests/support/service-process.ts), built here by
 * jest's global set-up, so several builders may ask at once (two jest runs, a run and
 * `npm start`): one builds while the others wait for its lock (dist/.build-lock), then find
 * dist/ fresh. A lock whose process is gone (killed mid-build) is taken over.
 */
const { execFileSync } = require("node:child_process");
const fs = require("node:fs");
const path = require("node:path");

const SOURCES = [
  "src",
  "tools/dev-db",
  "scripts",
  "tsconfig.json",
  "tsconfig.build.json",
  "package.json",
];
const STAMP = path.join("dist", ".build-stamp");
const LOCK = path.join("dist", ".build-lock");
/** A lock without its owner's pid after this long was left by a builder that died taking it. */
const OWNERLESS_LOCK_MS = 10_000;

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

/** Whether the process `pid` still exists. */
function isAlive(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return error.code === "EPERM";
  }
}

/** Whether the lock folder `lock`, which exists, was left by a process that is gone. */
function isAbandoned(lock) {
  try {
    const owner = Number(fs.readFileSync(path.join(lock, "pid"), "utf8"));
    return !isAlive(owner);
  } catch {
    // Taken, its pid not written yet; or just released.
    try {
      return Date.now() - fs.statSync(lock).mtimeMs > OWNERLESS_LOCK_MS;
    } catch {
      return false;
    }
  }
}

/** Runs `work` holding dist/'s build lock under `root`, waiting for another holder first. */
function withBuildLock(root, work) {
  const lock = path.join(root, LOCK);
  fs.mkdirSync(path.dirname(lock), { recursive: true });
  for (;;) {
    try {
      fs.mkdirSync(lock);
      break;
    } catch (error) {
      if (error.code !== "EEXIST") throw error;
    }
    if (isAbandoned(lock)) fs.rmSync(lock, { recursive: true, force: true });
    else Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 200);
  }
  try {
    fs.writeFileSync(path.join(lock, "pid"), String(process.pid));
    return work();
  } finally {
    fs.rmSync(lock, { recursive: true, force: true });
  }
}

/**
 * Runs `build` when dist/ is stale, then stamps it with the build's start; answers whether it
 * built. A builder that waited for another's lock builds only if dist/ is still stale after.
 */
function buildIfStale(root, build) {
  if (!isStale(root)) return false;
  return withBuildLock(root, () => {
    if (!isStale(root)) return false;
    const started = new Date();
    build();
    const stamp = path.join(root, STAMP);
    fs.writeFileSync(stamp, `${started.toISOString()}\n`);
    fs.utimesSync(stamp, started, started);
    return true;
  });
}

module.exports = { isStale, buildIfStale };

if (require.main === module) {
  const root = path.join(__dirname, "..");
  const tsc = require.resolve("typescript/bin/tsc");
  try {
    const built = buildIfStale(root, () => {
      // Up to a minute on a small machine: say why nothing else shows meanwhile.
      console.log("compiling dist/ (a source changed since the last build)");
      execFileSync(process.execPath, [tsc, "-p", "tsconfig.build.json"], {
        cwd: root,
        stdio: "inherit",
      });
    });
    if (!built) console.log("dist/ is up to date with its sources: not compiling");
  } catch (error) {
    // The compiler has printed what is wrong; no stack of ours under it.
    process.exit(typeof error.status === "number" ? error.status : 1);
  }
}
