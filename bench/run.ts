/**
 * `npm run bench`: the service on the embedded engine with the demo data at several member
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
 * `storm` the login storm, `burst` 20 sign-ins at once against cores ÷ one hash's time
 * (through REST and through the floor),
 * `files` uploads and signed-link reads (bench/file-transfers.ts), anything else the interface scenarios whose name contains it
 * (case-insensitive); all but `members` at the target count only.
 */
import "reflect-metadata";
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { startEngine, type DevEngine as Engine } from "../tools/dev-db/engine";
import { openSession } from "./client";
import { sampleCollections } from "./collection-stats";
import { databaseOf, ensureDatasets, removeRunLeftovers } from "./dataset";
import { measurePageVsDriver } from "./driver-alone";
import { signInBurst, type BurstResult } from "./sign-in-burst";
import { measureReaderGain } from "./ferretdb-reader";
import { measureFileTransfers } from "./file-transfers";
import { measureMemberReads } from "./member-reads";
import { ensureEvents, PUBLIC_READ_CONNECTIONS } from "./public-events";
import { childPid, childResidentMb, cpuMicros, residentMb } from "./processes";
import { keepHandWritten, renderReport, type ReportInput, type SizeResult } from "./report";
import type { Measured } from "./report-sections";
import { serviceEnv, startService, type ServiceWithFloor } from "./service-process";
import {
  applications,
  exportAll,
  log,
  loginStorm,
  medianRuns,
  readSuite,
  signIns,
  warmUp,
} from "./suite";
import { measure } from "./load";
import type { Session } from "./scenarios";

export interface BenchOptions {
  /** The member counts, smallest first: each is a database of its own. */
  sizes: number[];
  /** The member count the targets are judged at and the interfaces are measured at. */
  targetSize: number;
  /** Requests of each member read at every count (the same load before reading the memory). */
  sizeSamples: number;
  /** Further requests of each member read at the target count, for its verdicts. */
  targetSamples: number;
  pageTurns: number;
  pagesPerTurn: number;
  durationSeconds: number;
  runs: number;
  out: string;
  dataDir: string;
  smoke: boolean;
  only: string | null;
  /** Concurrency of the interface scenarios. */
  connections: number;
  /** Concurrency of the GET /offices latency target. */
  targetConnections: number;
  /** Concurrency of the anonymous public pages, as a busy home page sees them. */
  publicConnections: number;
  logins: number;
  applications: number;
  /** Sign-ins sent at once by the burst, at every count up to the target. */
  burstSize: number;
}

export function parseBenchArguments(argv: string[]): BenchOptions {
  const flags = new Map(
    argv.map((arg) => {
      const [key, value] = arg.replace(/^--/, "").split("=");
      return [key, value ?? "true"] as const;
    }),
  );
  const smoke = flags.get("smoke") === "true";
  const whole = (name: string, raw: string) => {
    if (!/^\d+$/.test(raw)) throw new Error(`--${name} must be a whole number, got "${raw}"`);
    return Number(raw);
  };
  const number = (name: string, fallback: number) => {
    const raw = flags.get(name);
    return raw === undefined ? fallback : whole(name, raw);
  };
  const sizesFlag = flags.get("sizes");
  const sizes = (
    sizesFlag
      ? sizesFlag.split(",").map((size) => whole("sizes", size))
      : smoke
        ? [100, 300]
        : [1_000, 10_000, 100_000]
  ).sort((a, b) => a - b);
  const targetSize = number("target", smoke ? 300 : sizes.includes(10_000) ? 10_000 : sizes[0]);
  if (!sizes.includes(targetSize)) throw new Error(`--target=${targetSize} is not in --sizes`);
  return {
    sizes,
    targetSize,
    sizeSamples: number("samples", smoke ? 3 : 2),
    targetSamples: smoke ? 5 : 6,
    pageTurns: smoke ? 2 : 3,
    pagesPerTurn: 2,
    durationSeconds: number("duration", smoke ? 1 : 4),
    runs: number("runs", smoke ? 1 : 3),
    out: path.resolve(flags.get("out") ?? "docs/performance.md"),
    dataDir: path.resolve(flags.get("data-dir") ?? path.join("bench", ".data")),
    smoke,
    only: flags.get("only")?.toLowerCase() ?? null,
    // Every office and branch read scans its collection on the embedded engine: more
    // connections than this only queue there.
    connections: number("connections", 4),
    targetConnections: smoke ? 4 : 100,
    publicConnections: number("public-connections", smoke ? 4 : PUBLIC_READ_CONNECTIONS),
    logins: smoke ? 2 : 20,
    applications: number("applications", smoke ? 10 : 500),
    burstSize: smoke ? 4 : 20,
  };
}

/**
 * The service as `npm start` runs it, and the floor beside it, compiled (ts-node alone would
 * add ~90 MB of RSS).
 */
function build(): void {
  log("compiling the service and the floor (tsconfig.bench.json)");
  execFileSync(
    process.execPath,
    [require.resolve("typescript/bin/tsc"), "-p", "tsconfig.bench.json"],
    { cwd: path.join(__dirname, ".."), stdio: "inherit" },
  );
}

/** The sign-in burst at one member count, through REST and the floor, logged as it ends. */
async function burstAt(
  engine: Engine,
  service: ServiceWithFloor,
  session: Session,
  members: number,
  options: BenchOptions,
): Promise<BurstResult> {
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

/** The page of GET /members?page=N compared with the driver: 5 % into the list. */
const pageOf = (members: number) => Math.max(2, Math.round(members * 0.005));

type TargetPart = Omit<ReportInput, "options" | "date" | "engine" | "sizes" | "capacity">;

/** Everything measured only at the target count. */
async function targetSuite(
  engine: Engine,
  options: BenchOptions,
  service: ServiceWithFloor,
  session: Session,
): Promise<TargetPart> {
  const pid = service.child.pid!;
  log(`member reads at ${options.targetSize}: ${options.targetSamples} more of each`);
  const targetReads = await measureMemberReads(session, options.targetSamples);
  const page = await measurePageVsDriver({
    uri: engine.uri,
    env: serviceEnv(engine, options.targetSize),
    url: service.url,
    token: session.adminToken,
    page: pageOf(options.targetSize),
    turns: options.pageTurns,
    perTurn: options.pagesPerTurn,
  });
  log(`member page: ${page.ratio.toFixed(2)} × the driver alone`);
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

export async function runBench(options: BenchOptions): Promise<ReportInput> {
  const engine = await startEngine({ dataDir: options.dataDir, log });
  try {
    await ensureDatasets(engine.uri, options.dataDir, options.sizes, log);
    build();
    const sizes: SizeResult[] = [];
    let target: TargetPart | undefined;
    for (const members of options.sizes) {
      await removeRunLeftovers(engine.uri, members);
      await ensureEvents(engine.uri, members);
      const service = await startService(engine, members);
      try {
        const session = await openSession(service);
        log(`member reads at ${members}: ${options.sizeSamples} of each, one at a time`);
        const reads = await measureMemberReads(session, options.sizeSamples);
        const size: SizeResult = {
          members,
          reads,
          serviceRssMb: residentMb(service.child.pid!),
          engineRssMb: childResidentMb(engine.kind),
        };
        log(
          `${members}: p95 list ${reads.list.result.p95} ms, search ${reads.search.result.p95} ms, ` +
            `users ${reads.users.result.p95} ms; RSS ${size.serviceRssMb} MB (engine ${size.engineRssMb} MB)`,
        );
        if (members <= options.targetSize) {
          size.burst = await burstAt(engine, service, session, members, options);
        }
        sizes.push(size);
        if (members === options.targetSize) {
          target = await targetSuite(engine, options, service, session);
        }
      } finally {
        await service.stop();
      }
    }
    const capacity = await sampleCollections(
      engine.uri,
      serviceEnv(engine, options.targetSize),
      options.targetSize,
    );
    return { options, date: new Date(), engine: engine.kind, sizes, ...target!, capacity };
  } finally {
    await engine.stop();
  }
}

/**
 * The full run, and then, with the run's engine stopped so that nothing else competes, what
 * FerretDB's one speed patch gains (it builds a FerretDB without it once, into bench/.tools).
 */
async function fullRun(options: BenchOptions): Promise<ReportInput> {
  const input = await runBench(options);
  if (input.engine !== "ferretdb") return input;
  log("the FerretDB reader's gain (bench/ferretdb-reader.ts)");
  return { ...input, readerGain: await measureReaderGain({ log }) };
}

/** --only: one part of a full run, printed as it goes. */
async function quickRun(options: BenchOptions): Promise<void> {
  if (options.only === "files") {
    await measureFileTransfers(log, { connections: options.connections });
    return;
  }
  const engine = await startEngine({ dataDir: options.dataDir, log });
  try {
    await ensureDatasets(engine.uri, options.dataDir, options.sizes, log);
    build();
    const sizes = options.only === "members" ? options.sizes : [options.targetSize];
    for (const members of sizes) {
      await removeRunLeftovers(engine.uri, members);
      await ensureEvents(engine.uri, members);
      const service = await startService(engine, members);
      try {
        const session = await openSession(service);
        if (options.only === "members") {
          const reads = await measureMemberReads(session, options.sizeSamples);
          for (const read of Object.values(reads)) {
            log(`${members} ${read.name}: p50 ${read.result.p50} ms, p95 ${read.result.p95} ms`);
          }
          log(`${members}: service RSS ${residentMb(service.child.pid!)} MB`);
        } else if (options.only === "page") {
          const page = await measurePageVsDriver({
            uri: engine.uri,
            env: serviceEnv(engine, members),
            url: service.url,
            token: session.adminToken,
            page: pageOf(members),
            turns: options.pageTurns,
            perTurn: options.pagesPerTurn,
          });
          log(
            `member page: ${page.ratio.toFixed(2)} × the driver alone (${page.queries.join(" / ")})`,
          );
        } else if (options.only === "storm") {
          await loginStorm(session, options);
        } else if (options.only === "burst") {
          await burstAt(engine, service, session, members, options);
        } else {
          await readSuite(session, options, () => cpuMicros(service.child.pid!));
        }
      } finally {
        await service.stop();
      }
    }
  } finally {
    await engine.stop();
  }
}

async function main(): Promise<void> {
  const options = parseBenchArguments(process.argv.slice(2));
  if (options.only !== null) return quickRun(options);
  const started = Date.now();
  const input = await fullRun(options);
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
