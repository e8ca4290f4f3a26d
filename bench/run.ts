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
 * read scenarios whose name contains it
 * (case-insensitive); all but `members` at the target count only.
 */
import "reflect-metadata";
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { MongoClient } from "mongodb";
import { clientOptionsFor } from "../src/db/connection";
import { startEngine, type DevEngine as Engine } from "../tools/dev-db/engine";
import { openSession } from "./client";
import { sampleCollections } from "./collection-stats";
import { databaseOf, ensureDatasets, removeRunLeftovers } from "./dataset";
import { logReportsVsDriver, measurePageVsDriver, type ServiceTarget } from "./driver-alone";
import { measure } from "./load";
import { measureMemberReads } from "./member-reads";
import { log, parseBenchArguments, type BenchOptions } from "./options";
import { childPid, childResidentMb, cpuMicros, residentMb } from "./processes";
import { keepHandWritten, renderReport } from "./report";
import type { ReportInput, SizeResult } from "./report-input";
import type { Measured } from "./report-sections";
import type { Session } from "./scenario";
import { READ_SCENARIOS } from "./scenarios";
import { serviceEnv, startService, type ServiceWithFloor } from "./service-process";
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

/** One member count's database, its running service and a session on it. */
interface At {
  engine: Engine;
  service: ServiceWithFloor;
  session: Session;
  members: number;
  options: BenchOptions;
}

/**
 * The service as `npm start` runs it, and the floor beside it, compiled (ts-node alone would
 * add ~90 MB of RSS); incrementally, so a run after no change to the sources does not wait for
 * the compiler.
 */
function build(): void {
  log("compiling the service and the floor (tsconfig.bench.json)");
  const tsc = require.resolve("typescript/bin/tsc");
  const info = path.join("dist", ".bench.tsbuildinfo");
  execFileSync(
    process.execPath,
    [tsc, "-p", "tsconfig.bench.json", "--incremental", "--tsBuildInfoFile", info],
    { cwd: path.join(__dirname, ".."), stdio: "inherit" },
  );
}

/** The engine with the datasets of every count seeded, and the service compiled. */
async function withEngine<T>(options: BenchOptions, use: (engine: Engine) => Promise<T>) {
  const engine = await startEngine({ dataDir: options.dataDir, log });
  try {
    await ensureDatasets(engine.uri, options.dataDir, options.sizes, log);
    build();
    return await use(engine);
  } finally {
    await engine.stop();
  }
}

/**
 * The service over the database of `members` (left as seeded, with what the read scenarios
 * seed at the target count), and a session on it, for `use`.
 */
async function atCount<T>(
  engine: Engine,
  members: number,
  options: BenchOptions,
  use: (at: At) => Promise<T>,
): Promise<T> {
  await removeRunLeftovers(engine.uri, members);
  if (members === options.targetSize) {
    const client = await MongoClient.connect(engine.uri, clientOptionsFor(engine.uri));
    try {
      const seeds = new Set(READ_SCENARIOS.flatMap((scenario) => scenario.seed ?? []));
      for (const seed of seeds) await seed(client.db(databaseOf(members)));
    } finally {
      await client.close();
    }
  }
  const service = await startService(engine, members);
  try {
    return await use({ engine, service, session: await openSession(service), members, options });
  } finally {
    await service.stop();
  }
}

/** The sign-in burst at one member count, through REST and the floor, logged as it ends. */
async function burstAt({ engine, service, session, members, options }: At) {
  const cost = Number(serviceEnv(engine, members).BCRYPT_COST);
  const processes = { cpuMicros, servicePid: service.child.pid!, enginePid: childPid(engine.kind) };
  const b = await signInBurst(session, cost, processes, options.burstSize);
  for (const [route, side] of [
    ["REST", b.rest],
    ["floor", b.floor],
  ] as const) {
    log(
      `${members}: ${b.count} sign-ins at once (${route}): ${side.answered} answered in ` +
        `${side.seconds.toFixed(2)} s, ${side.perSecond.toFixed(2)}/s; one hash at cost ${cost} ` +
        `${Math.round(b.hashMs)} ms on ${b.cores} cores allows ${b.bound.toFixed(2)}/s: ` +
        `${side.share.toFixed(2)} of it; CPU per sign-in: service ${Math.round(side.serviceCpuMs)} ms, ` +
        `engine ${side.engineCpuMs === null ? "?" : Math.round(side.engineCpuMs)} ms`,
    );
  }
  return b;
}

/** The service at `at`, for what builds its services in this process. */
const targetOf = ({ engine, members, service, session }: At): ServiceTarget => ({
  uri: engine.uri,
  env: serviceEnv(engine, members),
  url: service.url,
  token: session.adminToken,
});

/** GET /members?page=N, 5 % into the list, against its queries through the driver alone. */
async function pageAt(at: At) {
  const { members, options } = at;
  const page = await measurePageVsDriver(
    targetOf(at),
    Math.max(2, Math.round(members * 0.005)),
    options.pageTurns,
    options.pagesPerTurn,
  );
  log(`member page: ${page.ratio.toFixed(2)} × the driver alone (${page.queries.join(" / ")})`);
  return page;
}

type TargetPart = Omit<ReportInput, "options" | "date" | "engine" | "sizes" | "capacity">;

/** Everything measured only at the target count. */
async function targetSuite(at: At): Promise<TargetPart> {
  const { engine, service, session, options } = at;
  const pid = service.child.pid!;
  log(`member reads at ${options.targetSize}: ${options.targetSamples} more of each`);
  const targetReads = await measureMemberReads(session, options.targetSamples);
  const page = await pageAt(at);
  if (!options.smoke) await warmUp(session, options);
  const readRuns: Measured[][] = [];
  for (let run = 1; run <= options.runs; run += 1) {
    log(`interface reads, run ${run} of ${options.runs}`);
    readRuns.push(await readSuite(session, options, () => cpuMicros(pid)));
  }
  const apply = await applications(session, options, engine.uri, databaseOf(options.targetSize));
  const login: Measured = {
    name: "POST /auth/login (bcrypt cost 12)",
    via: "REST",
    connections: options.logins,
    result: await measure(signIns(session, options)),
  };
  const storm = await loginStorm(session, options);
  const csvExport = await exportAll(session, pid);
  return {
    targetReads,
    page,
    measured: [...medianRuns(readRuns), apply, login],
    readRuns,
    storm,
    csvExport,
  };
}

export function runBench(options: BenchOptions): Promise<ReportInput> {
  return withEngine(options, async (engine) => {
    const sizes: SizeResult[] = [];
    let target: TargetPart | undefined;
    for (const members of options.sizes) {
      await atCount(engine, members, options, async (at) => {
        log(`member reads at ${members}: ${options.sizeSamples} of each, one at a time`);
        const reads = await measureMemberReads(at.session, options.sizeSamples);
        const size: SizeResult = {
          members,
          reads,
          serviceRssMb: residentMb(at.service.child.pid!),
          engineRssMb: childResidentMb(engine.kind),
        };
        log(
          `${members}: p95 list ${reads.list.result.p95} ms, search ${reads.search.result.p95} ms, ` +
            `users ${reads.users.result.p95} ms; RSS ${size.serviceRssMb} MB (engine ${size.engineRssMb} MB)`,
        );
        if (members <= options.targetSize) size.burst = await burstAt(at);
        sizes.push(size);
        if (members === options.targetSize) target = await targetSuite(at);
      });
    }
    const capacity = await sampleCollections(
      engine.uri,
      serviceEnv(engine, options.targetSize),
      options.targetSize,
    );
    return { options, date: new Date(), engine: engine.kind, sizes, ...target!, capacity };
  });
}

/** --only: one part of a full run, printed as it goes. */
async function quickRun(options: BenchOptions): Promise<void> {
  await withEngine(options, async (engine) => {
    const sizes = options.only === "members" ? options.sizes : [options.targetSize];
    for (const members of sizes) {
      await atCount(engine, members, options, async (at) => {
        if (options.only === "members") {
          const reads = await measureMemberReads(at.session, options.sizeSamples);
          for (const read of Object.values(reads)) {
            log(`${members} ${read.name}: p50 ${read.result.p50} ms, p95 ${read.result.p95} ms`);
          }
          log(`${members}: service RSS ${residentMb(at.service.child.pid!)} MB`);
        } else if (options.only === "page") await pageAt(at);
        else if (options.only === "storm") await loginStorm(at.session, options);
        else if (options.only === "burst") await burstAt(at);
        else if (options.only === "report") await logReportsVsDriver(targetOf(at));
        else if (options.only === "files")
          await measureUploads(at.session, at.service.child.pid!, log);
        else await readSuite(at.session, options, () => cpuMicros(at.service.child.pid!));
      });
    }
  });
}

async function main(): Promise<void> {
  const options = parseBenchArguments(process.argv.slice(2));
  if (options.only !== null) return quickRun(options);
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
