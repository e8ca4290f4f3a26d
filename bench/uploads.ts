/**
 * `--only=files`: uploads of 1 MiB and 4 MiB files at 4 connections (POST /files), with the
 * service's resident memory sampled during them: streamed, it must not grow by the files in
 * flight. The read through a signed link is the read suite's "file read" group.
 */
import { measure, type LoadSpec } from "./load";
import { log } from "./options";
import { peakResidentMb } from "./processes";
import { bearer, pdfOf, type At, type Session } from "./scenario";

const BOUNDARY = "bench-uploads-boundary";
const CONNECTIONS = 4;

/** A PDF of `sizeMiB` as POST /files takes it, built once and sent by every request. */
function upload(session: Session, sizeMiB: number, amount: number): LoadSpec {
  const head =
    `--${BOUNDARY}\r\nContent-Disposition: form-data; name="purpose"\r\n\r\nREQUIREMENT\r\n` +
    `--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="bench.pdf"\r\n` +
    "Content-Type: application/pdf\r\n\r\n";
  const tail = `\r\n--${BOUNDARY}--\r\n`;
  return {
    url: `${session.baseUrl}/api/v1/files`,
    method: "POST",
    headers: {
      ...bearer(session.adminToken),
      "content-type": `multipart/form-data; boundary=${BOUNDARY}`,
    },
    body: Buffer.concat([Buffer.from(head), pdfOf(sizeMiB), Buffer.from(tail)]),
    connections: CONNECTIONS,
    amount,
  };
}

export async function measureUploads({ session, service }: At): Promise<void> {
  // Unmeasured: the first uploads compile and allocate what every later one reuses.
  await measure(upload(session, 1, 2 * CONNECTIONS));
  for (const sizeMiB of [1, 4]) {
    const { before, peak, result } = await peakResidentMb(service.pid, 20, () =>
      measure(upload(session, sizeMiB, 8 * CONNECTIONS)),
    );
    log(
      `${sizeMiB} MiB uploads ×${result.total} at ${CONNECTIONS} connections: ` +
        `${result.requestsPerSecond.toFixed(1)}/s, p50 ${result.p50} ms, ${result.failures} ` +
        `failed; the service's RSS ${before} → peak ${peak} MB`,
    );
  }
}
