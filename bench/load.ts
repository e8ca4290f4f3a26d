import autocannon from "autocannon";

/** One measured load: fixed concurrency for a fixed time (or a fixed number of requests). */
export interface LoadSpec {
  url: string;
  method?: "GET" | "POST";
  headers?: Record<string, string>;
  body?: string;
  connections: number;
  durationSeconds?: number;
  /** Stop after this many requests instead of after a duration. */
  amount?: number;
  /** A different body or headers per request (e.g. one token per application). */
  setupRequest?: (request: Record<string, unknown>) => Record<string, unknown>;
}

export interface LoadResult {
  requestsPerSecond: number;
  p50: number;
  p97_5: number;
  p99: number;
  max: number;
  total: number;
  /** Responses outside 2xx plus errors and timeouts. */
  failures: number;
}

export async function measure(spec: LoadSpec): Promise<LoadResult> {
  const result = await autocannon({
    url: spec.url,
    method: spec.method ?? "GET",
    headers: { "content-type": "application/json", ...spec.headers },
    body: spec.body,
    connections: spec.connections,
    ...(spec.amount === undefined
      ? { duration: spec.durationSeconds ?? 10 }
      : { amount: spec.amount }),
    timeout: 30,
    ...(spec.setupRequest ? { requests: [{ setupRequest: spec.setupRequest }] } : {}),
  } as autocannon.Options);
  const failures = result.non2xx + result.errors + result.timeouts;
  return {
    requestsPerSecond: result.requests.average,
    p50: result.latency.p50,
    p97_5: result.latency.p97_5,
    p99: result.latency.p99,
    max: result.latency.max,
    total: result.requests.total,
    failures,
  };
}
