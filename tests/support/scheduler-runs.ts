import type { TestApp } from "./test-app";
import { until } from "./until";

/** Until `count` of each of `jobs` has grown by two since this call. */
async function twoMore(
  count: (name: string) => number,
  jobs: readonly string[],
  what: string,
  boundMs: number,
) {
  const from = jobs.map(count);
  await until(
    () => jobs.every((name, i) => count(name) >= from[i] + 2),
    `no two more ${what} ${jobs.join(", ")}`,
    boundMs,
  );
}

/**
 * Until each of the recurring `jobs` has finished two more runs on `app` (or, given instances of
 * one deployment, on them together: one run of a recurring job is taken by one of them), instead
 * of sleeping through "a few looks" of the scheduler: runs of one recurring job never overlap,
 * so the second began after this call, and whatever a look would still do then has been done.
 */
export async function nextRunsOf(
  app: TestApp | readonly TestApp[],
  jobs: readonly string[],
  boundMs = 30_000,
) {
  const apps: readonly TestApp[] = Array.isArray(app) ? app : [app];
  const runs = (name: string) =>
    apps.reduce((sum, instance) => sum + instance.internals.jobs.runs(name), 0);
  await twoMore(runs, jobs, "whole runs of", boundMs);
}

/**
 * Until `app` has looked twice more for due jobs of each of the queued `jobs` and found none
 * left: a whole look began after this call, so whatever was due by then has been taken.
 */
export async function nextLooksOf(app: TestApp, jobs: readonly string[], boundMs = 30_000) {
  await twoMore((name) => app.internals.jobs.looks(name), jobs, "looks for due", boundMs);
}
