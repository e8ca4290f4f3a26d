/** What is measured once, at the target member count. */
import { DEMO_PASSWORD } from "../scripts/demo/demo-data";
import { SAMPLE_APPLICATION } from "../src/modules/members/sample-application";
import { connectDatabase } from "../src/db/connection";
import { BENCH_PASSWORD, createApplicants, databaseOf } from "./dataset";
import { measurePageVsDriver, measureReportsVsDriver } from "./driver-alone";
import { measure, measureInTurns, type LoadSpec } from "./load";
import { measureMemberReads } from "./member-reads";
import { cpuMicros, peakResidentMb } from "./processes";
import { medianBy, throughputRatio, type Measured } from "./report-sections";
import { log } from "./options";
import { bearer, connectionsOf, get, signIn, type At, type Scenario } from "./scenario";
import { READ_SCENARIOS } from "./scenarios";

export type TargetPart = Awaited<ReturnType<typeof targetSuite>>;

export async function targetSuite(at: At) {
  const { session, options } = at;
  log(`member reads at ${options.targetSize}: ${options.targetSamples} more of each`);
  const targetReads = await measureMemberReads(session, options.targetSamples);
  const page = await measurePageVsDriver(at);
  const reports = await measureReportsVsDriver(at);
  if (!options.smoke) await warmUp(at);
  // Every run of the interface reads: the ratios are taken per run.
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
  // The interface reads (each scenario's median run), then applications and sign-ins.
  const measured = [...medianRuns(readRuns), apply, login];
  return { targetReads, page, reports, measured, readRuns, storm, csvExport };
}

/**
 * One unmeasured pass over every read scenario before the first run: the JIT and V8's heap
 * settle over the first seconds of traffic, longer than a scenario's own warm-up.
 */
async function warmUp({ session, options }: At): Promise<void> {
  log("warming up: every read scenario once, unmeasured");
  for (const scenario of READ_SCENARIOS) {
    const spec = await scenario.spec(session, connectionsOf(scenario, options));
    await measure({ ...spec, durationSeconds: 2 });
  }
}

/** The read scenarios (those `--only` names, if given), a group's in turns with their CPU. */
export async function readSuite({ session, options, service }: At): Promise<Measured[]> {
  const { only } = options;
  const cpuOf = () => cpuMicros(service.pid);
  const scenarios = READ_SCENARIOS.filter((s) => !only || s.name.toLowerCase().includes(only));
  // The units measured together: a group next to each other in the registry, or one scenario.
  const units: Scenario[][] = [];
  for (const scenario of scenarios) {
    const last = units[units.length - 1];
    if (scenario.group && last?.[0].group === scenario.group) last.push(scenario);
    else units.push([scenario]);
  }
  const results: Measured[] = [];
  for (const unit of units) {
    const specs: LoadSpec[] = [];
    for (const scenario of unit) {
      const spec = await scenario.spec(session, connectionsOf(scenario, options));
      // A short warm-up, which also tells how many answers make a turn of about half a second.
      const warm = await measure({ ...spec, durationSeconds: 1 });
      const perTurn = Math.max(2 * spec.connections, Math.round(warm.requestsPerSecond / 2));
      specs.push(unit.length > 1 ? { ...spec, amount: perTurn } : spec);
    }
    const measured =
      unit.length > 1
        ? await measureInTurns(specs, 2 * options.durationSeconds, { cpuOf })
        : [await measure({ ...specs[0], durationSeconds: options.durationSeconds })];
    const floor = measured[unit.findIndex((scenario) => scenario.via === "floor")];
    unit.forEach(({ name, via, group }, index) => {
      const result = measured[index];
      const cpu = result.cpuMicrosPerRequest;
      log(
        `${via} ${name}: ${Math.round(result.requestsPerSecond)} req/s, p99 ${result.p99} ms` +
          (cpu === undefined ? "" : `, ${Math.round(cpu)} µs CPU/request`) +
          // --only prints no report: each ratio to the floor as the report takes it.
          (floor && result !== floor
            ? `, ${throughputRatio(result, floor).toFixed(2)} × the floor's rate (turns' median)`
            : ""),
      );
      results.push({ name, via, group, connections: specs[index].connections, result });
    });
  }
  return results;
}

/**
 * Each read scenario's median run by throughput: the read suite runs several times, and one
 * run alone moves by a fifth on a machine whose two cores run everything.
 */
export function medianRuns(suites: Measured[][]): Measured[] {
  return suites[0].map((_, index) => {
    const runs = suites.map((suite) => suite[index]);
    return medianBy(runs, (run) => run.result.requestsPerSecond);
  });
}

/** POST /members/apply once for each of `options.applications` new accounts, signed in first. */
async function applications({ engine, session, options, members }: At): Promise<Measured> {
  const connection = await connectDatabase({ uri: engine.uri, dbName: databaseOf(members) });
  const emails = await createApplicants(connection, options.applications).finally(() =>
    connection.close(),
  );
  const tokens: string[] = [];
  for (let first = 0; first < emails.length; first += 8) {
    const batch = emails.slice(first, first + 8);
    const signedIn = batch.map((email) => signIn(session.baseUrl, email, BENCH_PASSWORD));
    tokens.push(...(await Promise.all(signedIn)));
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
        ...bearer(tokens[next++ % tokens.length]),
      },
    }),
  });
  log(`applications: ${Math.round(result.requestsPerSecond)} req/s`);
  return { name: "POST /members/apply", via: "REST", connections, result };
}

/**
 * Sign-ins for `seconds`, or, in the smoke run, until each connection has signed in once: on a
 * busy machine a second could end before the first cost-12 hash is answered.
 */
function signIns({ session, options }: At, seconds = options.durationSeconds) {
  return {
    url: `${session.baseUrl}/api/v1/auth/login`,
    method: "POST" as const,
    body: JSON.stringify({ email: session.memberEmail, password: DEMO_PASSWORD }),
    connections: options.logins,
    ...(options.smoke ? { amount: options.logins } : { durationSeconds: seconds }),
  };
}

/** GET /offices at the target concurrency alone, the floor's, and again during sign-ins. */
export async function loginStorm(at: At) {
  const { session, options } = at;
  const offices = (floor = false) => ({
    ...get("/offices", { floor })(session, options.targetConnections),
    durationSeconds: options.durationSeconds * 2,
  });
  await measure({ ...offices(), durationSeconds: 1 });
  const alone = await measure(offices());
  await measure({ ...offices(true), durationSeconds: 1 });
  const floor = await measure(offices(true));
  const [during, storm] = await Promise.all([
    measure(offices()),
    measure(signIns(at, options.durationSeconds * 2)),
  ]);
  log(
    `GET /offices p99 ${during.p99} ms during sign-ins (${Math.round(storm.requestsPerSecond)}/s, ` +
      `${storm.failures} failed) vs ${alone.p99} ms alone`,
  );
  return { alone, floor, during, storm };
}

/** GET /members/export.csv of every record (archived included), with the service's memory. */
async function exportAll({ session, service }: At) {
  const started = Date.now();
  let rows = -1;
  const { before, peak } = await peakResidentMb(service.pid, 100, async () => {
    const response = await fetch(
      `${session.baseUrl}/api/v1/members/export.csv?includeArchived=true`,
      { headers: bearer(session.adminToken) },
    );
    if (!response.ok || !response.body) throw new Error(`export: ${response.status}`);
    const decoder = new TextDecoder();
    const reader = response.body.getReader();
    for (let next = await reader.read(); !next.done; next = await reader.read()) {
      // Rows end with CRLF; line breaks inside quoted cells are bare LF.
      rows += (decoder.decode(next.value, { stream: true }).match(/\r\n/g) ?? []).length;
    }
  });
  const seconds = Math.round((Date.now() - started) / 100) / 10;
  log(`CSV export: ${rows} rows in ${seconds} s, peak +${peak - before} MB`);
  return { rows, seconds, baselineMb: before, peakGrowthMb: peak - before };
}
