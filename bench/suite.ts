/**
 * What is measured once, at the target member count: the interfaces against the floor and
 * Apollo alone, applications, sign-ins and the login storm, and the streaming export.
 */
import { DEMO_PASSWORD } from "../scripts/demo/demo-data";
import { SAMPLE_APPLICATION } from "../src/modules/members/sample-application";
import { connectDatabase } from "../src/db/connection";
import { signIn } from "./client";
import { BENCH_PASSWORD, createApplicants } from "./dataset";
import { measure, measureInTurns, type LoadSpec } from "./load";
import { residentMb } from "./processes";
import { throughputRatio, type Measured } from "./report-sections";
import { log, type BenchOptions } from "./options";
import { connectionsOf, type Scenario, type Session } from "./scenario";
import { READ_SCENARIOS } from "./scenarios";

/**
 * One unmeasured pass over every read scenario before the first run: the JIT and V8's heap
 * settle over the first seconds of traffic, which a scenario's own 1 s warm-up does not cover
 * for the first scenarios of the first run (they measured about a third slower than later runs).
 */
export async function warmUp(session: Session, options: BenchOptions): Promise<void> {
  log("warming up: every read scenario once, unmeasured");
  for (const scenario of READ_SCENARIOS) {
    await measure({
      ...(await scenario.spec(session, connectionsOf(scenario, options))),
      durationSeconds: 2,
    });
  }
}

/** `cpuOf`: the service process's CPU time so far, for each scenario's CPU time per answer. */
export async function readSuite(
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
    const specs: LoadSpec[] = [];
    for (const scenario of unit) {
      const spec = await scenario.spec(session, connectionsOf(scenario, options));
      // A short warm-up first (JIT, pools, as a running service would have them), which also
      // tells how many answers make a turn of about half a second.
      const warm = await measure({ ...spec, durationSeconds: 1 });
      const perTurn = Math.max(2 * spec.connections, Math.round(warm.requestsPerSecond / 2));
      specs.push(unit.length > 1 ? { ...spec, amount: perTurn } : spec);
    }
    // The scenarios of a ratio take turns of about half a second, so that they share the drift.
    const measured =
      unit.length > 1
        ? await measureInTurns(specs, 2 * options.durationSeconds, { cpuOf })
        : [await measure({ ...specs[0], durationSeconds: options.durationSeconds })];
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
    // A quick run (--only) prints no report: say each ratio to the floor as the report takes it.
    const floor = unit.findIndex((scenario) => scenario.via === "floor");
    unit.forEach((scenario, index) => {
      if (floor < 0 || index === floor || unit.length < 2) return;
      const ratio = throughputRatio(measured[index], measured[floor]);
      log(
        `${scenario.via} ${scenario.name}: ${ratio.toFixed(2)} × the floor's rate (turns' median)`,
      );
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

/** POST /members/apply once for each of `count` new accounts, each signed in first. */
export async function applications(
  session: Session,
  options: BenchOptions,
  uri: string,
  dbName: string,
): Promise<Measured> {
  const connection = await connectDatabase({ uri, dbName });
  const tokens: string[] = [];
  try {
    const emails = await createApplicants(connection, options.applications);
    for (let first = 0; first < emails.length; first += 8) {
      const batch = emails.slice(first, first + 8);
      tokens.push(
        ...(await Promise.all(
          batch.map((email) => signIn(session.baseUrl, email, BENCH_PASSWORD)),
        )),
      );
    }
  } finally {
    await connection.close();
  }
  let next = 0;
  const connections = Math.min(20, options.connections);
  const result = await measure({
    url: `${session.baseUrl}/api/v1/members/apply`,
    method: "POST",
    body: JSON.stringify(SAMPLE_APPLICATION),
    connections,
    amount: tokens.length,
    setupRequest: (request) => ({
      ...request,
      headers: {
        ...(request.headers as Record<string, string>),
        authorization: `Bearer ${tokens[next++ % tokens.length]}`,
      },
    }),
  });
  log(`applications: ${Math.round(result.requestsPerSecond)} req/s`);
  return { name: "POST /members/apply", via: "REST", connections, result };
}

/**
 * Sign-ins for `seconds`, or, in the smoke run, until each connection has signed in once. A
 * cost-12 hash takes about 250 ms alone; on a machine busy with other tests a second or two
 * could end before the first answer, and the smoke run would measure none.
 */
export function signIns(
  session: Session,
  options: BenchOptions,
  seconds = options.durationSeconds,
) {
  const spec = {
    url: `${session.baseUrl}/api/v1/auth/login`,
    method: "POST" as const,
    body: JSON.stringify({ email: session.memberEmail, password: DEMO_PASSWORD }),
    connections: options.logins,
    durationSeconds: seconds,
  };
  return options.smoke ? { ...spec, durationSeconds: undefined, amount: options.logins } : spec;
}

/**
 * GET /offices at the target concurrency, alone and while `logins` sign-ins run (cost 12); and
 * the hand-written floor's GET /offices at that concurrency right after the first, as what
 * the same work gives with neither Sofa nor GraphQL.
 */
export async function loginStorm(session: Session, options: BenchOptions) {
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
    measure(signIns(session, options, options.durationSeconds * 2)),
  ]);
  log(
    `GET /offices p99 ${during.p99} ms during sign-ins (${Math.round(storm.requestsPerSecond)}/s, ` +
      `${storm.failures} failed) vs ${alone.p99} ms alone`,
  );
  return { alone, floor, during, storm };
}

/**
 * Downloads GET /members/export.csv of every record (archived included) while sampling the
 * service's resident memory: the streaming export's memory bound on the demo data.
 */
export async function exportAll(session: Session, pid: number) {
  const baseline = residentMb(pid);
  let peak = baseline;
  const sampler = setInterval(() => (peak = Math.max(peak, residentMb(pid))), 100);
  const started = Date.now();
  let rows = -1;
  try {
    const response = await fetch(
      `${session.baseUrl}/api/v1/members/export.csv?includeArchived=true`,
      { headers: { authorization: `Bearer ${session.adminToken}` } },
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
  const csvExport = {
    rows,
    seconds: Math.round((Date.now() - started) / 100) / 10,
    baselineMb: baseline,
    peakGrowthMb: peak - baseline,
  };
  log(`CSV export: ${rows} rows in ${csvExport.seconds} s, peak +${csvExport.peakGrowthMb} MB`);
  return csvExport;
}
