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
 * `storm` the login storm, `burst` 20 sign-ins at once against cores ÷ one hash's time
 * (through REST and through the floor), `files` uploads (bench/uploads.ts), anything else the
 * read scenarios whose name contains it (case-insensitive); all but `members` at the target
 * count only.
 */
import "reflect-metadata";
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { startEngine, type DevEngine as Engine } from "../tools/dev-db/engine";
import { sampleCollections } from "./collection-stats";
import { ensureDatasets, resetDatabase } from "./dataset";
import { measurePageVsDriver, measureReportsVsDriver } from "./driver-alone";
import { measure } from "./load";
import { measureMemberReads } from "./member-reads";
import { log, parseBenchArguments, type BenchOptions } from "./options";
import { childPid, residentMb } from "./processes";
import { keepHandWritten, renderReport } from "./report";
import type { ReportInput, SizeResult } from "./report-input";
import type { Measured } from "./report-sections";
import { openSession, type At } from "./scenario";
import { READ_SCENARIOS } from "./scenarios";
import { serviceEnv, startService } from "./service-process";
import { signInBurst } from "./sign-in-burst";
import { measureUploads } from "./uploads";
import {
  applications,
  exportAll,
  loginStorm,
  medianRuns,
  readSuite,
  signIns,
  warmUp,
} from "./suite";

/** The engine with every count's dataset seeded, and the service and floor compiled. */
async function withEngine<T>(options: BenchOptions, use: (engine: Engine) => Promise<T>) {
  const engine = await startEngine({ dataDir: options.dataDir, log });
  try {
    await ensureDatasets(engine.uri, options.dataDir, options.sizes);
    // Compiled, as `npm start` runs it (ts-node would add to its memory); incrementally, so a
    // run after no change to the sources does not wait for the compiler.
    log("compiling the service and the floor (tsconfig.bench.json)");
    const tsc = require.resolve("typescript/bin/tsc");
    const buildInfo = path.join("dist", ".bench.tsbuildinfo");
    const args = ["-p", "tsconfig.bench.json", "--incremental", "--tsBuildInfoFile", buildInfo];
    execFileSync(process.execPath, [tsc, ...args], {
      cwd: path.join(__dirname, ".."),
      stdio: "inherit",
    });
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

/** The member reads at one count, and the service's and the engine's memory right after. */
async function readsAt({ engine, service, session, members, options }: At): Promise<SizeResult> {
  const reads = await measureMemberReads(session, options.sizeSamples);
  const enginePid = childPid(engine.kind);
  const size = {
    members,
    reads,
    serviceRssMb: residentMb(service.pid),
    engineRssMb: enginePid === null ? null : residentMb(enginePid),
  };
  for (const read of Object.values(reads)) {
    log(`${members} ${read.name}: p50 ${read.result.p50} ms, p95 ${read.result.p95} ms`);
  }
  log(`${members}: RSS ${size.serviceRssMb} MB (engine ${size.engineRssMb} MB)`);
  return size;
}

type TargetPart = Omit<ReportInput, "options" | "date" | "engine" | "sizes" | "capacity">;

/** Everything measured only at the target count. */
async function targetSuite(at: At): Promise<TargetPart> {
  const { session, options } = at;
  log(`member reads at ${options.targetSize}: ${options.targetSamples} more of each`);
  const targetReads = await measureMemberReads(session, options.targetSamples);
  const page = await measurePageVsDriver(at);
  const reports = await measureReportsVsDriver(at);
  if (!options.smoke) await warmUp(at);
  const readRuns: Measured[][] = [];
  for (let run = 1; run <= options.runs; run += 1) {
    log(`interface reads, run ${run} of ${options.runs}`);
    readRuns.push(await readSuite(at));
  }
  const apply = await applications(at);
  const login: Measured = {
    name: "POST /auth/login (bcrypt cost 12)",
    via: "REST",
    connections: options.logins,
    result: await measure(signIns(at)),
  };
  const storm = await loginStorm(at);
  const csvExport = await exportAll(at);
  const measured = [...medianRuns(readRuns), apply, login];
  return { targetReads, page, reports, measured, readRuns, storm, csvExport };
}

export function runBench(options: BenchOptions): Promise<ReportInput> {
  return withEngine(options, async (engine) => {
    const sizes: SizeResult[] = [];
    let target: TargetPart | undefined;
    for (const members of options.sizes) {
      await atCount(engine, members, options, async (at) => {
        const size = await readsAt(at);
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

/** --only: one part of a full run, printed as it goes; any other text picks read scenarios. */
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
