import http from "node:http";
import type { Logger } from "pino";
import { buildAppSchema } from "../graphql/schema";
import { createMockApp } from "./mock-app";

export interface MockServer {
  url: string;
  close: () => Promise<void>;
}

/** The mock on a port of its own (0: any free one); `scripts/mock.ts` and the tests start it. */
export async function startMockServer(options: {
  port: number;
  host: string;
  log: Logger;
  seed?: string;
}): Promise<MockServer> {
  const mock = await createMockApp(await buildAppSchema(), options.log, options.seed);
  const server = http.createServer(mock.app);
  await new Promise<void>((resolve) => server.listen(options.port, options.host, resolve));
  const address = server.address();
  const port = typeof address === "object" && address ? address.port : options.port;
  return {
    url: `http://${options.host === "0.0.0.0" ? "127.0.0.1" : options.host}:${port}`,
    close: async () => {
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
      await mock.stop();
    },
  };
}
