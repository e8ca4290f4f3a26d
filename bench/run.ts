/**
 * `npm run bench`: the service on the embedded engine with the demo data, measured with
 * autocannon from this (separate) process; writes docs/performance.md.
 *
 *   npm run bench -- [--members=100000] [--duration=5] [--runs=3] [--out=docs/performance.md]
 *                    [--data-dir=bench/.data] [--smoke] [--only=<text>] [--connections=50]
 *
 * --smoke: a few hundred members, one-second loads, one run, no cluster comparison; for the
 * test suite, which checks that the harness works, not how fast anything is.
 * --only=<text>: just the read scenarios whose name contains <text> (case-insensitive), once,
 * and the search target if its name does (--only=search), or the login storm alone
 * (--only=storm); printed and not written to docs/performance.md; for trying a change quickly.
 */
import "reflect-metadata";
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { connectDatabase } from "../src/db/connection";
import { startEngine, type Engine } from "../src/db/engine";
import { DEMO_PASSWORD } from "../scripts/demo/demo-data";
import {
  BENCH_DATA_KEY,
  BENCH_DB,
  BENCH_PASSWORD,
  createApplicants,
  ensureDataset,
} from "./dataset";
import { measure, measureInTurns, type LoadResult } from "./load";
import { cpuMicros, freePort, residentMb, spawnServer, type Spawned } from "./processes";
import { renderReport, type Measured, type ReportInput } from "./report";
import { SAMPLE_APPLICATION } from "../scripts/demo/sample-application";
import { HEAP_OPTIONS, READ_SCENARIOS, type Scenario, type Session } from "./scenarios";

export interface BenchOptions {
  members: number;
  durationSeconds: number;
  runs: number;
  out: string;
  dataDir: string;
  smoke: boolean;
  /** Only the read scenarios whose name contains this, lower-cased; no report. */
  only: string | null;
  /** Concurrency of the read scenarios. */
  connections: number;
  /** Concurrency of the GET /offices latency target. */
  targetConnections: number;
  logins: number;
  applications: number;
}

const JWT_SECRET = "bench-secret-bench-secret-bench-secret-0123";

export function parseBenchArguments(argv: string[]): BenchOptions {
  const flags = new Map(
    argv.map((arg) => {
      const [key, value] = arg.replace(/^--/, "").split("=");
      return [key, value ?? "true"] as const;
    }),
  );
  const smoke = flags.get("smoke") === "true";
  const number = (name: string, fallback: number) => {
    const raw = flags.get(name);
    if (raw === undefined) return fallback;
    if (!/^\d+$/.test(raw)) throw new Error(`--${name} must be a whole number, got "${raw}"`);
    return Number(raw);
  };
  const members = number("members", smoke ? 300 : 100_000);
  return {
    members,
    durationSeconds: number("duration", smoke ? 1 : 5),
    runs: number("runs", smoke ? 1 : 3),
    out: path.resolve(flags.get("out") ?? "docs/performance.md"),
    dataDir: path.resolve(flags.get("data-dir") ?? path.join("bench", ".data", String(members))),
    smoke,
    only: flags.get("only")?.toLowerCase() ?? null,
    connections: number("connections", smoke ? 4 : 50),
    targetConnections: smoke ? 4 : 100,
    logins: smoke ? 2 : 20,
    applications: number("applications", smoke ? 10 : 500),
  };
}

const log = (line: string) =>
  console.log(`[bench ${new Date().toISOString().slice(11, 19)}] ${line}`);

function serviceEnv(engine: Engine, extra: Record<string, string> = {}): Record<string, string> {
  return {
    NODE_ENV: "production",
    MONGODB_URI: engine.uri,
    DB_NAME: BENCH_DB,
    JWT_SECRET,
    DATA_KEY: BENCH_DATA_KEY,
    // Request logs are I/O the hand-written floor does not do; warnings still show.
    LOG_LEVEL: "warn",
    BCRYPT_COST: "12",
    // The benchmark is one client hammering from one address: limits would turn it into 429s.
    RATE_LIMIT_PER_MINUTE: "1000000",
    RATE_LIMIT_ACCOUNT_PER_HOUR: "1000000",
    LOGIN_MAX_FAILURES: "1000",
    // The heap cap README recommends for about 100 000 members: V8 otherwise grows the heap
    // far past the live data (about 120 MB) on a machine with plenty of memory.
    NODE_OPTIONS: HEAP_OPTIONS,
    ...extra,
  };
}

async function postJson<T>(url: string, body: unknown, token?: string): Promise<T> {
  const response = await fetch(url, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      ...(token ? { authorization: `Bearer ${token}` } : {}),
    },
    body: JSON.stringify(body),
  });
  const parsed = (await response.json()) as T;
  if (!response.ok) throw new Error(`${url}: ${response.status} ${JSON.stringify(parsed)}`);
  return parsed;
}

async function getJson<T>(url: string, token: string): Promise<T> {
  const response = await fetch(url, { headers: { authorization: `Bearer ${token}` } });
  const parsed = (await response.json()) as T;
  if (!response.ok) throw new Error(`${url}: ${response.status} ${JSON.stringify(parsed)}`);
  return parsed;
}

const signIn = async (baseUrl: string, email: string, password: string) =>
  (await postJson<{ accessToken: string }>(`${baseUrl}/api/v1/auth/login`, { email, password }))
    .accessToken;

/** Tokens and ids the scenarios use, read through the API like any client would. */
async function openSession(service: ServiceWithFloor): Promise<Session> {
  const adminToken = await signIn(service.url, "reviewer@demo.example.org", DEMO_PASSWORD);
  // The first list waits for the member directory to finish loading (5–10 s at 100k).
  const started = Date.now();
  const members = await getJson<{ data: { user: { email: string }; lastName: string }[] }>(
    `${service.url}/api/v1/members?limit=40&status=APPROVED`,
    adminToken,
  );
  log(`member directory ready after ${Math.round((Date.now() - started) / 1000)} s`);
  const someone = members.data[0];
  const memberToken = await signIn(service.url, someone.user.email, DEMO_PASSWORD);
  const offices = await getJson<{ data: { id: string }[] }>(
    `${service.url}/api/v1/offices?limit=1`,
    memberToken,
  );
  return {
    baseUrl: service.url,
    floorUrl: service.floorUrl,
    adminToken,
    memberToken,
    memberEmail: someone.user.email,
    officeId: offices.data[0].id,
    searchTerm: someone.lastName.toLowerCase().slice(0, 5),
    searchTerms: [...new Set(members.data.map((m) => m.lastName.toLowerCase().slice(0, 4)))],
  };
}

/**
 * One unmeasured pass over every read scenario before the first run: the JIT and V8's heap
 * settle over the first seconds of traffic, which a scenario's own 1 s warm-up does not cover
 * for the first scenarios of the first run (they measured about a third slower than later runs).
 */
async function warmUp(session: Session, options: BenchOptions): Promise<void> {
  log("warming up: every read scenario once, unmeasured");
  for (const scenario of READ_SCENARIOS) {
    await measure({ ...scenario.spec(session, options.connections), durationSeconds: 2 });
  }
}

/** `cpuOf`: the service process's CPU time so far, for each scenario's CPU time per answer. */
async function readSuite(
  session: Session,
  options: BenchOptions,
  cpuOf: () => number,
): Promise<Measured[]> {
  const only = options.only;
  const scenarios = only
    ? READ_SCENARIOS.filter((scenario) => scenario.name.toLowerCase().includes(only))
    : READ_SCENARIOS;
  const results: Measured[] = [];
  for (const unit of measuringUnits(scenarios)) {
    const specs = unit.map((scenario) => ({
      ...scenario.spec(session, options.connections),
      durationSeconds: options.durationSeconds,
    }));
    // A short warm-up first: JIT, caches and pools, as a running service would have them.
    for (const spec of specs) await measure({ ...spec, durationSeconds: 1 });
    // The scenarios of a ratio take turns, a second each, so that they share the drift.
    const measured =
      unit.length > 1
        ? await measureInTurns(specs, options.durationSeconds, { cpuOf })
        : [await measure(specs[0])];
    unit.forEach((scenario, index) => {
      const result = measured[index];
      log(
        `${scenario.via} ${scenario.name}: ${Math.round(result.requestsPerSecond)} req/s, p99 ${result.p99} ms` +
          (result.cpuMicrosPerRequest === undefined
            ? ""
            : `, ${Math.round(result.cpuMicrosPerRequest)} µs CPU/request`),
      );
      results.push({
        name: scenario.name,
        via: scenario.via,
        group: scenario.group,
        connections: specs[index].connections,
        result,
      });
    });
  }
  return results;
}

/** The scenarios in order, as the units measured together: a ratio group, or one scenario. */
function measuringUnits(scenarios: Scenario[]): Scenario[][] {
  const units: Scenario[][] = [];
  for (const scenario of scenarios) {
    const last = units[units.length - 1];
    if (scenario.group && last?.[0].group === scenario.group) last.push(scenario);
    else units.push([scenario]);
  }
  return units;
}

async function applications(
  session: Session,
  options: BenchOptions,
  tokens: string[],
): Promise<Measured> {
  let next = 0;
  const result = await measure({
    url: `${session.baseUrl}/api/v1/members/apply`,
    method: "POST",
    body: JSON.stringify(SAMPLE_APPLICATION),
    connections: Math.min(20, options.connections),
    amount: tokens.length,
    setupRequest: (request) => ({
      ...request,
      headers: {
        ...(request.headers as Record<string, string>),
        authorization: `Bearer ${tokens[next++ % tokens.length]}`,
      },
    }),
  });
  return {
    name: "POST /members/apply",
    via: "REST",
    connections: Math.min(20, options.connections),
    result,
  };
}

function loginSpec(session: Session, email: string, connections: number, durationSeconds: number) {
  return {
    url: `${session.baseUrl}/api/v1/auth/login`,
    method: "POST" as const,
    body: JSON.stringify({ email, password: DEMO_PASSWORD }),
    connections,
    durationSeconds,
  };
}

/**
 * Sign-ins for `seconds`, or, in the smoke run, until each connection has signed in once. A
 * cost-12 hash takes about 250 ms alone; on a machine busy with other tests a second or two
 * could end before the first answer, and the smoke run would measure none.
 */
function signIns(
  session: Session,
  email: string,
  options: BenchOptions,
  seconds = options.durationSeconds,
) {
  const spec = loginSpec(session, email, options.logins, seconds);
  return options.smoke ? { ...spec, durationSeconds: undefined, amount: options.logins } : spec;
}

async function applicantTokens(engine: Engine, service: Spawned, count: number): Promise<string[]> {
  const connection = await connectDatabase({ uri: engine.uri, dbName: BENCH_DB });
  try {
    const emails = await createApplicants(connection, count);
    const tokens: string[] = [];
    for (let first = 0; first < emails.length; first += 8) {
      const batch = emails.slice(first, first + 8);
      tokens.push(
        ...(await Promise.all(batch.map((email) => signIn(service.url, email, BENCH_PASSWORD)))),
      );
    }
    return tokens;
  } finally {
    await connection.close();
  }
}

/**
 * Downloads GET /members/export.csv of every record (archived included) while sampling the
 * service's resident memory: the streaming export's memory bound on the demo data.
 */
async function exportAll(session: Session, pid: number) {
  const baseline = residentMb(pid);
  let peak = baseline;
  const sampler = setInterval(() => (peak = Math.max(peak, residentMb(pid))), 100);
  const started = Date.now();
  let rows = -1;
  try {
    const response = await fetch(
      `${session.baseUrl}/api/v1/members/export.csv?includeArchived=true`,
      {
        headers: { authorization: `Bearer ${session.adminToken}` },
      },
    );
    if (!response.ok || !response.body) throw new Error(`export: ${response.status}`);
    const decoder = new TextDecoder();
    const reader = response.body.getReader();
    for (let next = await reader.read(); !next.done; next = await reader.read()) {
      // Rows end with CRLF; line breaks inside quoted cells are bare LF.
      rows += (decoder.decode(next.value, { stream: true }).match(/\r\n/g) ?? []).length;
    }
  } finally {
    clearInterval(sampler);
  }
  return {
    rows,
    seconds: Math.round((Date.now() - started) / 100) / 10,
    baselineMb: baseline,
    peakGrowthMb: peak - baseline,
  };
}

/**
 * Each read scenario's median run by throughput: the read suite runs several times and one
 * run alone moves by ±20 % on a machine whose two cores run everything.
 */
export function medianRuns(suites: Measured[][]): Measured[] {
  return suites[0].map((_, index) => {
    const runs = suites.map((suite) => suite[index]);
    runs.sort((a, b) => a.result.requestsPerSecond - b.result.requestsPerSecond);
    return runs[Math.floor((runs.length - 1) / 2)];
  });
}

const SEARCH_TARGET_NAME = "GET /members?search=… (varied)";

/**
 * The search latency target: a few searches at once (the target names no concurrency; the
 * read suite has the same search at 50 connections), each for another surname prefix. With
 * `connections` 1, for reference: one search at a time (what a single administrator waits).
 */
async function searchAt(
  session: Session,
  options: BenchOptions,
  connections: number,
): Promise<Measured> {
  let next = 0;
  const spec = {
    url: `${session.baseUrl}/api/v1/members`,
    headers: { authorization: `Bearer ${session.adminToken}` },
    connections,
    durationSeconds: options.durationSeconds,
    setupRequest: (request: Record<string, unknown>) => ({
      ...request,
      // Encoded: a prefix such as "de g" holds a space, which would break the request line.
      path: `/api/v1/members?search=${encodeURIComponent(session.searchTerms[next++ % session.searchTerms.length])}`,
    }),
  };
  await measure({ ...spec, durationSeconds: 1 });
  const result = await measure(spec);
  log(`search: p95 ${result.p95} ms, p97.5 ${result.p97_5} ms at ${connections} connections`);
  return { name: SEARCH_TARGET_NAME, via: "REST", connections, result };
}

const searchTargetConnections = (options: BenchOptions) => (options.smoke ? 2 : 10);

/**
 * The run of the search target with the median p95: one run alone moved between 99 and
 * 119 ms within an hour on this machine, whose speed drifts by a fifth.
 */
export function medianSearch(runs: Measured[]): Measured {
  const sorted = [...runs].sort((a, b) => a.result.p95 - b.result.p95);
  // With an even number of runs, the slower middle one: the verdict should not lean kind.
  return sorted[Math.floor(sorted.length / 2)];
}

/**
 * GET /offices at the target concurrency, alone and while `logins` sign-ins run (cost 12); and
 * the hand-written floor's GET /offices at that concurrency right after the first, as what
 * the same work gives with neither Sofa nor GraphQL.
 */
async function loginStorm(session: Session, email: string, options: BenchOptions) {
  const offices = (baseUrl = `${session.baseUrl}/api/v1`) => ({
    url: `${baseUrl}/offices`,
    headers: { authorization: `Bearer ${session.memberToken}` },
    connections: options.targetConnections,
    durationSeconds: options.durationSeconds * 2,
  });
  await measure({ ...offices(), durationSeconds: 1 });
  const alone = await measure(offices());
  await measure({ ...offices(session.floorUrl), durationSeconds: 1 });
  const floor = await measure(offices(session.floorUrl));
  const [during, storm] = await Promise.all([
    measure(offices()),
    measure(signIns(session, email, options, options.durationSeconds * 2)),
  ]);
  return { alone, floor, during, storm };
}

interface ServiceWithFloor extends Spawned {
  floorUrl: string;
}

/**
 * The service (src/server.ts, as src/main.ts starts it with WORKERS=1) with the hand-written
 * floor listening beside it in the same process (bench/service-with-floor.ts): a ratio then
 * compares the two routes in one heap, one JIT and one process's share of the machine.
 */
async function startService(engine: Engine): Promise<ServiceWithFloor> {
  const floorPort = await freePort();
  const service = await spawnServer(
    "dist/bench/service-with-floor.js",
    serviceEnv(engine, { FLOOR_PORT: String(floorPort) }),
    "/api/v1/health",
  );
  return { ...service, floorUrl: `http://127.0.0.1:${floorPort}` };
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
    {
      cwd: path.join(__dirname, ".."),
      stdio: "inherit",
    },
  );
}

/** GET /offices throughput with WORKERS=1 against WORKERS=2, on one engine. */
async function clusterComparison(engine: Engine, options: BenchOptions, session: Session) {
  const results: { workers: number; result: LoadResult }[] = [];
  for (const workers of [1, 2]) {
    const service = await spawnServer(
      "dist/src/main.js",
      serviceEnv(engine, { WORKERS: String(workers) }),
      "/api/v1/health",
    );
    try {
      const spec = {
        url: `${service.url}/api/v1/offices`,
        headers: { authorization: `Bearer ${session.memberToken}` },
        connections: options.targetConnections,
        durationSeconds: options.durationSeconds * 2,
      };
      await measure({ ...spec, durationSeconds: 2 });
      results.push({ workers, result: await measure(spec) });
    } finally {
      await service.stop();
    }
  }
  return results;
}

export async function runBench(options: BenchOptions): Promise<ReportInput> {
  await ensureDataset(options.dataDir, options.members, log);
  build();
  const engine = await startEngine({ dataDir: options.dataDir, log });
  const spawned: Spawned[] = [];
  try {
    const service = await startService(engine);
    spawned.push(service);
    const session = await openSession(service);
    const email = session.memberEmail;

    const rss: number[] = [];
    const suites: Measured[][] = [];
    // Searches too are measured once per run, spread over the runs like the other reads.
    const searchRuns: Measured[] = [];
    if (!options.smoke) await warmUp(session, options);
    for (let run = 1; run <= options.runs; run += 1) {
      log(`read suite, run ${run} of ${options.runs}`);
      suites.push(await readSuite(session, options, () => cpuMicros(service.child.pid!)));
      rss.push(residentMb(service.child.pid!));
      searchRuns.push(await searchAt(session, options, searchTargetConnections(options)));
    }
    const reads = medianRuns(suites);
    const searchTarget = medianSearch(searchRuns);
    const searchAlone = await searchAt(session, options, 1);
    const tokens = await applicantTokens(engine, service, options.applications);
    const apply = await applications(session, options, tokens);
    log(`applications: ${Math.round(apply.result.requestsPerSecond)} req/s`);
    const login: Measured = {
      name: "POST /auth/login (bcrypt cost 12)",
      via: "REST",
      connections: options.logins,
      result: await measure(signIns(session, email, options)),
    };
    const storm = await loginStorm(session, email, options);
    rss.push(residentMb(service.child.pid!));
    const csvExport = await exportAll(session, service.child.pid!);
    log(
      `CSV export: ${csvExport.rows} rows in ${csvExport.seconds} s, peak +${csvExport.peakGrowthMb} MB`,
    );
    await service.stop();
    spawned.splice(spawned.indexOf(service), 1);
    const cluster = options.smoke ? [] : await clusterComparison(engine, options, session);
    return {
      options,
      date: new Date(),
      measured: [...reads, searchTarget, searchAlone, apply, login],
      searchTarget,
      searchRuns,
      readRuns: suites,
      searchAlone,
      storm,
      rss,
      cluster,
      csvExport,
    };
  } finally {
    for (const process of spawned) await process.stop();
    await engine.stop();
  }
}

/**
 * --only: the chosen read scenarios once, against the same service and data as a full run,
 * and the search target when the text names it too; or only the login storm.
 */
async function quickRun(options: BenchOptions): Promise<void> {
  await ensureDataset(options.dataDir, options.members, log);
  build();
  const engine = await startEngine({ dataDir: options.dataDir, log });
  const spawned: Spawned[] = [];
  try {
    const service = await startService(engine);
    spawned.push(service);
    const session = await openSession(service);
    if (options.only === "storm") {
      const { alone, during, storm } = await loginStorm(session, session.memberEmail, options);
      log(
        `GET /offices p99 ${during.p99} ms during sign-ins (${Math.round(storm.requestsPerSecond)}/s, ` +
          `${storm.failures} failed) vs ${alone.p99} ms alone: ${(during.p99 / alone.p99).toFixed(2)} x`,
      );
      return;
    }
    await readSuite(session, options, () => cpuMicros(service.child.pid!));
    if (SEARCH_TARGET_NAME.toLowerCase().includes(options.only!)) {
      await searchAt(session, options, searchTargetConnections(options));
    }
  } finally {
    for (const process of spawned) await process.stop();
    await engine.stop();
  }
}

async function main(): Promise<void> {
  const options = parseBenchArguments(process.argv.slice(2));
  if (options.only !== null) return quickRun(options);
  const input = await runBench(options);
  fs.mkdirSync(path.dirname(options.out), { recursive: true });
  fs.writeFileSync(options.out, renderReport(input));
  log(`wrote ${options.out}`);
}

if (require.main === module) {
  main().catch((error: unknown) => {
    console.error(error);
    process.exit(1);
  });
}
