import type { TestApp } from "./test-app";
import { until } from "./until";

/**
 * Until each of the recurring `jobs` has finished two more runs on `app`, instead of sleeping
 * through "a few looks" of the scheduler: runs of one recurring job never overlap, so the second
 * began after this call, and whatever a look would still do then has been done.
 */
export async function nextRunsOf(app: TestApp, jobs: readonly string[], boundMs = 30_000) {
  const progress = app.internals.jobs;
  const from = jobs.map((name) => progress.runs(name));
  await until(
    () => jobs.every((name, i) => progress.runs(name) >= from[i] + 2),
    `no two more whole runs of ${jobs.join(", ")}`,
    boundMs,
  );
}
