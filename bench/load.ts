import autocannon from "autocannon";

/** One measured load: fixed concurrency for a fixed time (or a fixed number of requests). */
export interface LoadSpec {
  url: string;
  method?: "GET" | "POST";
  headers?: Record<string, string>;
  body?: string | Buffer;
  connections: number;
  durationSeconds?: number;
  /** Stop after this many requests instead of after a duration. */
  amount?: number;
  /** How long one answer may take before it counts as a failure; 30 s unless given. */
  timeoutSeconds?: number;
  /** The status every answer should have, when not a 2xx (a revalidation's 304). */
  expectedStatus?: number;
  /** A different body or headers per request (e.g. one token per application). */
  setupRequest?: (request: Record<string, unknown>) => Record<string, unknown>;
}

export interface LoadResult {
  requestsPerSecond: number;
  p50: number;
  /** Exact, from every response's time (autocannon's own percentiles skip from p90 to p97.5). */
  p95: number;
  p97_5: number;
  p99: number;
  max: number;
  total: number;
  /** Responses outside 2xx plus errors and timeouts. */
  failures: number;
  /** The server's CPU time per answer, in µs, when measured in turns with a CPU reader. */
  cpuMicrosPerRequest?: number;
  /** Answers per second in each turn, when measured in turns (in the order of the turns). */
  turnRates?: number[];
}

export interface TurnOptions {
  turnSeconds?: number;
  /** The server's CPU time so far, in µs: read around every turn, so each load gets its own. */
  cpuOf?: () => number;
}

export async function measure(spec: LoadSpec): Promise<LoadResult> {
  const { result, times, unexpected } = await run(spec);
  return {
    // A fixed amount may take under a second, which autocannon's per-second average misses.
    requestsPerSecond:
      spec.amount === undefined
        ? result.requests.average
        : result.requests.total / Math.max(result.duration, 1e-9),
    p50: result.latency.p50,
    p95: percentile(times, 95),
    p97_5: result.latency.p97_5,
    p99: result.latency.p99,
    // From the same exact times as p95: autocannon's own maximum keeps whole milliseconds, and
    // a p95 rounded from an exact 127.6 ms once came out above its 127.
    max: maxOf(times),
    total: result.requests.total,
    failures: failuresOf(result, unexpected),
  };
}

/**
 * Several loads measured in turns: each for `turnSeconds`, one after the other, `turns` times
 * over. The machine's speed drifts over seconds to minutes: measured back to back, 5 s each,
 * one pair's ratio came out 0.65, 1.09 and 0.89 in the three runs of one benchmark; taking
 * turns, a drift falls on every load alike, and every other round runs in the reverse order.
 * Turns are whole seconds: autocannon stops on its
 * one-second tick. A spec with an `amount` takes that many answers a turn instead, so that no
 * request is cut off at a turn's end while the database is still busy with it. Each result
 * adds up its turns (rates over their total time, percentiles over every response's time,
 * CPU time over its answers).
 */
export async function measureInTurns(
  specs: LoadSpec[],
  turns: number,
  { turnSeconds = 1, cpuOf }: TurnOptions = {},
): Promise<LoadResult[]> {
  const sums = specs.map(() => ({
    times: [] as number[],
    total: 0,
    failures: 0,
    seconds: 0,
    cpu: 0,
    rates: [] as number[],
  }));
  for (let turn = 0; turn < turns; turn += 1) {
    // Every other round runs backwards, so that no load always follows the same other one.
    const order = turn % 2 === 0 ? [...specs.entries()] : [...specs.entries()].reverse();
    for (const [index, spec] of order) {
      const cpuBefore = cpuOf?.() ?? 0;
      const turnSpec = spec.amount === undefined ? { ...spec, durationSeconds: turnSeconds } : spec;
      const { result, times, unexpected } = await run(turnSpec);
      const sum = sums[index];
      sum.cpu += (cpuOf?.() ?? 0) - cpuBefore;
      for (const time of times) sum.times.push(time);
      sum.total += result.requests.total;
      sum.failures += failuresOf(result, unexpected);
      sum.seconds += result.duration;
      sum.rates.push(result.requests.total / Math.max(result.duration, 1e-9));
    }
  }
  return sums.map((sum) => ({
    ...resultOf(sum.times, sum.seconds, sum.failures, sum.total),
    turnRates: sum.rates,
    ...(cpuOf ? { cpuMicrosPerRequest: sum.cpu / Math.max(sum.total, 1) } : {}),
  }));
}

/**
 * A load's figures from every answer's time (ms) over `seconds` of load; `total` when answers
 * were counted apart from their times.
 */
export function resultOf(
  times: number[],
  seconds: number,
  failures: number,
  total = times.length,
): LoadResult {
  return {
    requestsPerSecond: total / Math.max(seconds, 1e-9),
    p50: percentile(times, 50),
    p95: percentile(times, 95),
    p97_5: percentile(times, 97.5),
    p99: percentile(times, 99),
    max: maxOf(times),
    total,
    failures,
  };
}

/** One autocannon load with every response's time (ms), for callers that add up turns. */
export async function run(
  spec: LoadSpec,
): Promise<{ result: autocannon.Result; times: number[]; unexpected?: number }> {
  const times: number[] = [];
  let unexpected = 0;
  const result = await new Promise<autocannon.Result>((resolve, reject) => {
    const instance = autocannon(options(spec), (error: unknown, done: autocannon.Result) => {
      if (error) reject(error instanceof Error ? error : new Error("autocannon failed"));
      else resolve(done);
    });
    instance.on("response", (_client, status, _bytes, responseTime) => {
      times.push(responseTime);
      if (spec.expectedStatus !== undefined && status !== spec.expectedStatus) unexpected += 1;
    });
  });
  return { result, times, ...(spec.expectedStatus === undefined ? {} : { unexpected }) };
}

/** Answers off the expected status (any but a 2xx unless the spec names one), errors, timeouts. */
const failuresOf = (result: autocannon.Result, unexpected?: number) =>
  (unexpected ?? result.non2xx) + result.errors + result.timeouts;

function options(spec: LoadSpec): autocannon.Options {
  return {
    url: spec.url,
    method: spec.method ?? "GET",
    headers: { "content-type": "application/json", ...spec.headers },
    body: spec.body,
    connections: spec.connections,
    ...(spec.amount === undefined
      ? { duration: spec.durationSeconds ?? 10 }
      : { amount: spec.amount }),
    timeout: spec.timeoutSeconds ?? 30,
    ...(spec.setupRequest ? { requests: [{ setupRequest: spec.setupRequest }] } : {}),
  } as autocannon.Options;
}

const maxOf = (times: number[]) => times.reduce((max, time) => Math.max(max, time), 0);

/** The nearest-rank percentile of `values`, rounded to the millisecond like autocannon's. */
export function percentile(values: number[], rank: number): number {
  if (values.length === 0) return 0;
  const sorted = Float64Array.from(values).sort();
  return Math.round(sorted[Math.max(0, Math.ceil((rank / 100) * sorted.length) - 1)]);
}
