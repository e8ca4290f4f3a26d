import http from "node:http";
import type { AddressInfo } from "node:net";
import { Webhook } from "standardwebhooks";

export interface ReceivedHook {
  id: string;
  timestamp: string;
  signature: string;
  raw: string;
  body: { type: string; timestamp: string; data: Record<string, unknown> };
}

/**
 * A site's webhook route on the loopback: records every request; `answer` decides the status
 * of each (200 unless told otherwise).
 */
export async function startReceiver(answer: (hook: ReceivedHook) => number = () => 200) {
  const received: ReceivedHook[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      const raw = Buffer.concat(chunks).toString("utf8");
      const hook: ReceivedHook = {
        id: String(req.headers["webhook-id"]),
        timestamp: String(req.headers["webhook-timestamp"]),
        signature: String(req.headers["webhook-signature"]),
        raw,
        body: JSON.parse(raw) as ReceivedHook["body"],
      };
      received.push(hook);
      res.statusCode = answer(hook);
      res.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hook`,
    received,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/** What the site's route does: the library's verifier, on the raw body and the headers. */
export function verified(secret: string, hook: ReceivedHook): unknown {
  return new Webhook(secret).verify(hook.raw, {
    "webhook-id": hook.id,
    "webhook-timestamp": hook.timestamp,
    "webhook-signature": hook.signature,
  });
}
