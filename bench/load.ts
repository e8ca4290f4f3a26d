import autocannon from "autocannon";

/** One load: fixed concurrency for a fixed time, or for a fixed number of requests. */
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

/** Percentiles are exact, from every response's time: autocannon's skip from p90 to p97.5. */
export type LoadResult = ReturnType<typeof resultOf> & {
  /** The server's CPU time per answer, in µs, when measured in turns with a CPU reader. */
  cpuMicrosPerRequest?: number;
  /** Answers per second in each turn, when measured in turns (in the order of the turns). */
  turnRates?: number[];
};

export async function measure(spec: LoadSpec): Promise<LoadResult> {
  const { times, seconds, failures, total } = await run(spec);
  return resultOf(times, seconds, failures, total);
}

/**
 * `each` of `sides` in `turns` rounds, every other round backwards: the machine's speed drifts,
 * and turns lay a drift on every side alike.
 */
export async function inTurns<T>(
  sides: readonly T[],
  turns: number,
  each: (side: T, turn: number) => Promise<unknown>,
): Promise<void> {
  for (let turn = 0; turn < turns; turn += 1) {
    for (const side of turn % 2 === 0 ? sides : [...sides].reverse()) await each(side, turn);
  }
}

/**
 * Several loads in turns (inTurns), `turns` rounds of `turnSeconds` (whole: autocannon stops on
 * its tick). A spec with an `amount` takes that many answers a turn instead, so that no request
 * is cut off while the database still works on it, and that turn's time and CPU run to its last
 * answer (run). `cpuOf`, the server's CPU time so far in µs, is read for every turn.
 */
export async function measureInTurns(
  specs: LoadSpec[],
  turns: number,
  { turnSeconds = 1, cpuOf }: { turnSeconds?: number; cpuOf?: () => number } = {},
): Promise<LoadResult[]> {
  const runs = specs.map(() => [] as (Awaited<ReturnType<typeof run>> & { cpu: number })[]);
  await inTurns([...specs.entries()], turns, async ([index, spec]) => {
    const one = await run(
      spec.amount === undefined ? { ...spec, durationSeconds: turnSeconds } : spec,
      cpuOf,
    );
    runs[index].push({ ...one, cpu: one.cpu ?? 0 });
  });
  return runs.map((each) => {
    const add = (key: "total" | "seconds" | "failures" | "cpu") =>
      each.reduce((all, one) => all + one[key], 0);
    const times = each.flatMap((one) => one.times);
    return {
      ...resultOf(times, add("seconds"), add("failures"), add("total")),
      turnRates: each.map((one) => one.total / Math.max(one.seconds, 1e-9)),
      ...(cpuOf ? { cpuMicrosPerRequest: add("cpu") / Math.max(add("total"), 1) } : {}),
    };
  });
}

/**
 * A load's figures from every answer's time (ms) over `seconds` of load; `failures` counts answers
 * off the expected status (a 2xx unless the spec names one), errors and timeouts.
 */
export function resultOf(times: number[], seconds: number, failures: number, total = times.length) {
  return {
    requestsPerSecond: total / Math.max(seconds, 1e-9),
    p50: percentile(times, 50),
    p95: percentile(times, 95),
    p97_5: percentile(times, 97.5),
    p99: percentile(times, 99),
    max: times.reduce((max, time) => Math.max(max, time), 0),
    total,
    failures,
  };
}

/**
 * One autocannon load: every response's time (ms), the answers, the failures, its seconds and,
 * given `cpuOf`, the server's CPU time over them. A load of an `amount` ends at its last answer:
 * autocannon reports it only on its next once-a-second tick, and its duration and the server's
 * idle CPU until then would belong to no answer.
 */
export async function run(spec: LoadSpec, cpuOf?: () => number) {
  const times: number[] = [];
  let unexpected = 0;
  const startedAt = performance.now();
  const cpuBefore = cpuOf?.();
  let last: { at: number; cpu?: number } | undefined;
  const result = await new Promise<autocannon.Result>((resolve, reject) => {
    const instance = autocannon(
      {
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
      } as autocannon.Options,
      (error: unknown, done: autocannon.Result) => {
        if (error) reject(error instanceof Error ? error : new Error("autocannon failed"));
        else resolve(done);
      },
    );
    instance.on("response", (_client, status, _bytes, responseTime) => {
      times.push(responseTime);
      if (spec.expectedStatus !== undefined && status !== spec.expectedStatus) unexpected += 1;
      if (times.length === spec.amount) last = { at: performance.now(), cpu: cpuOf?.() };
    });
  });
  last ??= { at: performance.now(), cpu: cpuOf?.() };
  const off = spec.expectedStatus === undefined ? result.non2xx : unexpected;
  return {
    times,
    total: result.requests.total,
    seconds: spec.amount === undefined ? result.duration : (last.at - startedAt) / 1000,
    failures: off + result.errors + result.timeouts,
    cpu: cpuBefore === undefined || last.cpu === undefined ? undefined : last.cpu - cpuBefore,
  };
}

/** The nearest-rank percentile of `values`, rounded to the millisecond like autocannon's. */
export function percentile(values: number[], rank: number): number {
  if (values.length === 0) return 0;
  const sorted = Float64Array.from(values).sort();
  return Math.round(sorted[Math.max(0, Math.ceil((rank / 100) * sorted.length) - 1)]);
}
