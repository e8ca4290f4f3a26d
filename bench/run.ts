/**
 * `npm run bench`: the service on the development engine with the demo data at several member
 * counts, measured with autocannon from this (separate) process; writes docs/performance.md.
 *
 *   npm run bench -- [--sizes=1000,10000,100000] [--target=10000] [--duration=4] [--runs=3]
 *                    [--out=docs/performance.md] [--data-dir=bench/.data] [--smoke]
 *                    [--only=<text>] [--connections=4] [--public-connections=50] [--samples=2]
 *
 * --smoke: a few hundred members, one-second loads, one run, four connections everywhere; for
 * the test suite, which checks that the harness works, not how fast anything is.
 * --only=<text>: printed, not written to docs/performance.md, for trying a change quickly:
 * `members` the member reads at every count, `page` the member page against the driver alone,
 * `report` office reports against their aggregations through the driver (bench/driver-alone.ts),
 * `layers` REST's and /graphql's layers on a title by id with no database (bench/layers.ts,
 * with NODE_ENV=production), `reader` the engine's speed patch (bench/engine-reader.ts), `storm` the login storm, `burst` 20 sign-ins at once against cores ÷
 * one hash's time (through REST and through the floor), `files` uploads (bench/uploads.ts),
 * anything else the read scenarios whose name contains it (case-insensitive); all but `members`
 * at the target count only.
 */
import "reflect-metadata";
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { startEngine, type DevEngine as Engine } from "../tools/dev-db/engine";
import { sampleCollections } from "./collection-stats";
import { ensureDatasets, resetDatabase } from "./dataset";
import { measurePageVsDriver, measureReportsVsDriver } from "./driver-alone";
import { measureReaderGain } from "./engine-reader";
import { readsAt } from "./member-reads";
import { measureLayers } from "./layers";
import { log, parseBenchArguments, type BenchOptions } from "./options";
import { keepHandWritten, renderReport } from "./report";
import type { ReportInput, SizeResult } from "./report-input";
import { openSession, type At } from "./scenario";
import { READ_SCENARIOS } from "./scenarios";
import { serviceEnv, startService } from "./service-process";
import { signInBurst } from "./sign-in-burst";
import { loginStorm, readSuite, targetSuite, type TargetPart } from "./suite";
import { measureUploads } from "./uploads";

/** The service, the floor and the seed compiled, and the engine with every count's dataset. */
async function withEngine<T>(options: BenchOptions, use: (engine: Engine) => Promise<T>) {
  // Compiled, as `npm start` runs it (ts-node would add to its memory); incrementally, so a
  // run after no change to the sources does not wait for the compiler.
  log("compiling the service, the floor and the seed (tsconfig.bench.json)");
  const tsc = require.resolve("typescript/bin/tsc");
  const buildInfo = path.join("dist", ".bench.tsbuildinfo");
  const args = ["-p", "tsconfig.bench.json", "--incremental", "--tsBuildInfoFile", buildInfo];
  execFileSync(process.execPath, [tsc, ...args], {
    cwd: path.join(__dirname, ".."),
    stdio: "inherit",
  });
  const engine = await startEngine({ dataDir: options.dataDir, log });
  try {
    await ensureDatasets(engine.uri, options.dataDir, options.sizes);
    return await use(engine);
  } finally {
    await engine.stop();
  }
}

/** The service over the database of `members` as seeded (at the target, with the scenarios'). */
async function atCount<T>(
  engine: Engine,
  members: number,
  options: BenchOptions,
  use: (at: At) => Promise<T>,
): Promise<T> {
  const seeds = new Set(READ_SCENARIOS.flatMap((scenario) => scenario.seed ?? []));
  await resetDatabase(engine.uri, members, members === options.targetSize ? seeds : []);
  const service = await startService(engine, members);
  try {
    return await use({ engine, service, session: await openSession(service), members, options });
  } finally {
    await service.stop();
  }
}

export function runBench(options: BenchOptions): Promise<ReportInput> {
  return withEngine(options, async (engine) => {
    const sizes: SizeResult[] = [];
    let target: TargetPart | undefined;
    for (const members of options.sizes) {
      await atCount(engine, members, options, async (at) => {
        const size: SizeResult = await readsAt(at);
        if (members <= options.targetSize) size.burst = await signInBurst(at);
        sizes.push(size);
        if (members === options.targetSize) target = await targetSuite(at);
      });
    }
    const env = serviceEnv(engine, options.targetSize);
    const capacity = await sampleCollections(engine.uri, env, options.targetSize);
    return { options, date: new Date(), engine: engine.kind, sizes, ...target!, capacity };
  });
}

const QUICK: Record<string, (at: At) => Promise<unknown>> = {
  members: readsAt,
  page: measurePageVsDriver,
  storm: loginStorm,
  burst: signInBurst,
  report: measureReportsVsDriver,
  files: measureUploads,
};

async function main(): Promise<void> {
  const options = parseBenchArguments(process.argv.slice(2));
  const only = options.only;
  if (only === "layers") return void (await measureLayers());
  if (only === "reader") return measureReaderGain(options);
  if (only !== null) {
    const quick = Object.hasOwn(QUICK, only) ? QUICK[only] : readSuite;
    return withEngine(options, async (engine) => {
      for (const members of only === "members" ? options.sizes : [options.targetSize]) {
        await atCount(engine, members, options, quick);
      }
    });
  }
  const started = Date.now();
  const input = await runBench(options);
  fs.mkdirSync(path.dirname(options.out), { recursive: true });
  // What was measured, kept so a report's wording can be checked against the figures it came from.
  fs.writeFileSync(path.join(options.dataDir, "last-run.json"), JSON.stringify(input, null, 1));
  const previous = fs.existsSync(options.out) ? fs.readFileSync(options.out, "utf8") : null;
  fs.writeFileSync(options.out, keepHandWritten(renderReport(input), previous));
  log(`wrote ${options.out} after ${Math.round((Date.now() - started) / 60_000)} min`);
}

if (require.main === module) {
  main().catch((error: unknown) => {
    console.error(error);
    process.exit(1);
  });
}
