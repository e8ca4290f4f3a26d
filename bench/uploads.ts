/**
 * Uploads of 1 MiB and 4 MiB files at 4 connections (POST /files), with the service's resident
 * memory sampled during them: streamed, it must not grow by the files in flight.
 * `npm run bench -- --only=files`; printed, copied by hand into docs/performance.md. The read of
 * a file through its signed link, against the storage driver alone, is the read suite's
 * "file read" group (scenarios.ts).
 */
import { randomBytes } from "node:crypto";
import { measure, type LoadSpec } from "./load";
import { residentMb } from "./processes";
import { bearer, type Session } from "./scenario";

const MiB = 1024 * 1024;
const BOUNDARY = "bench-uploads-boundary";

/** A PDF of `sizeMiB` as POST /files takes it, built once and sent by every request. */
function upload(session: Session, sizeMiB: number, connections: number): LoadSpec {
  const head =
    `--${BOUNDARY}\r\nContent-Disposition: form-data; name="purpose"\r\n\r\nREQUIREMENT\r\n` +
    `--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="bench.pdf"\r\n` +
    "Content-Type: application/pdf\r\n\r\n";
  const body = Buffer.concat([
    Buffer.from(`${head}%PDF-1.4\n`),
    randomBytes(sizeMiB * MiB - 9),
    Buffer.from(`\r\n--${BOUNDARY}--\r\n`),
  ]);
  return {
    url: `${session.baseUrl}/api/v1/files`,
    method: "POST",
    headers: {
      ...bearer(session.adminToken),
      "content-type": `multipart/form-data; boundary=${BOUNDARY}`,
    },
    body,
    connections,
  };
}

export async function measureUploads(
  session: Session,
  pid: number,
  log: (line: string) => void,
  { connections = 4, perConnection = 8 } = {},
): Promise<void> {
  // Unmeasured: the first uploads compile and allocate what every later one reuses.
  await measure({ ...upload(session, 1, connections), amount: 2 * connections });
  for (const sizeMiB of [1, 4]) {
    const before = residentMb(pid);
    let peak = before;
    const sampler = setInterval(() => (peak = Math.max(peak, residentMb(pid))), 20);
    const spec = { ...upload(session, sizeMiB, connections), amount: connections * perConnection };
    const result = await measure(spec).finally(() => clearInterval(sampler));
    log(
      `${sizeMiB} MiB uploads ×${result.total} at ${connections} connections: ` +
        `${result.requestsPerSecond.toFixed(1)}/s, p50 ${result.p50} ms, ${result.failures} ` +
        `failed; the service's RSS ${before} → peak ${peak} MB`,
    );
  }
}
