/**
 * Issue 39 point 7: uploads of 1 MiB and 4 MiB files at 4 connections with the service's
 * resident memory read during them (streamed, it must not grow by the files in flight), and a
 * file read through a signed link against the same file read straight from the storage driver
 * in the same process. `npm run bench -- --only=files`; printed, copied by hand into
 * docs/performance.md.
 *
 * The service runs in this process (src/server.ts's startServer, as the tests start it), so
 * the driver read and the link read share one heap and one JIT; the client's request bodies
 * are built once per size and reused, so they add a constant to the resident memory.
 */
import fs from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { randomBytes } from "node:crypto";
import { loadConfig } from "../src/config";
import { connectDatabase } from "../src/db/connection";
import { createLogger } from "../src/logger";
import { startServer } from "../src/server";
import { DirectoryStorage } from "../src/storage/directory-storage";
import { startEngine } from "../tools/dev-db/engine";

const MiB = 1024 * 1024;
const ADMIN = { email: "bench-files@example.org", password: "Bench#Files#2026-long" };

export interface FileTransferFigures {
  uploads: {
    sizeMiB: number;
    count: number;
    perSecond: number;
    p50Ms: number;
    rssBeforeMb: number;
    rssPeakMb: number;
  }[];
  read: {
    linkMs: number;
    driverMs: number;
    inProcessMs: number;
    ratio: number;
    sizeMiB: number;
    rounds: number;
  };
}

export async function measureFileTransfers(
  log: (line: string) => void,
  { connections = 4, uploadsPerConnection = 8, rounds = 61, readsPerRound = 3 } = {},
): Promise<FileTransferFigures> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "bench-files-"));
  const engine = await startEngine({ dataDir, log: () => undefined });
  const config = loadConfig({
    NODE_ENV: "development",
    PORT: "0",
    HOST: "127.0.0.1",
    MONGODB_URI: engine.uri,
    DB_NAME: "bench_files",
    DATA_DIR: dataDir,
    JWT_SECRET: "bench-secret-bench-secret-bench-secret-0123",
    LOG_LEVEL: "warn",
    BCRYPT_COST: "4",
    ADMIN_EMAIL: ADMIN.email,
    ADMIN_PASSWORD: ADMIN.password,
    RATE_LIMIT_PER_MINUTE: "1000000",
    RATE_LIMIT_UPLOADS_PER_HOUR: "1000000",
    FILE_MAX_PER_USER: "100000",
  });
  const connection = await connectDatabase({ uri: engine.uri, dbName: config.dbName });
  const running = await startServer(config, createLogger(config), connection);
  const url = new URL(running.url);
  try {
    const token = await signIn(url);
    const uploads: FileTransferFigures["uploads"] = [];
    let lastId = "";
    let lastLink = "";
    // Unmeasured: the first uploads compile and allocate what every later one reuses.
    const warmUp = multipart(Buffer.concat([Buffer.from("%PDF-1.4\n"), randomBytes(MiB)]));
    for (let i = 0; i < 2 * connections; i += 1) {
      await send(url, "POST", "/api/v1/files", token, warmUp);
    }
    for (const sizeMiB of [1, 4]) {
      const bytes = Buffer.concat([Buffer.from("%PDF-1.4\n"), randomBytes(sizeMiB * MiB - 9)]);
      const body = multipart(bytes);
      global.gc?.();
      const rssBefore = process.memoryUsage.rss();
      let rssPeak = rssBefore;
      const sampler = setInterval(() => {
        rssPeak = Math.max(rssPeak, process.memoryUsage.rss());
      }, 20);
      const times: number[] = [];
      const started = performance.now();
      await Promise.all(
        Array.from({ length: connections }, async () => {
          for (let i = 0; i < uploadsPerConnection; i += 1) {
            const t0 = performance.now();
            const answer = await send(url, "POST", "/api/v1/files", token, body);
            if (answer.status !== 201) throw new Error(`upload: ${answer.status} ${answer.text}`);
            times.push(performance.now() - t0);
            const data = (JSON.parse(answer.text) as { data: { id: string; fileUrl: string } })
              .data;
            lastId = data.id;
            lastLink = data.fileUrl;
          }
        }),
      );
      const seconds = (performance.now() - started) / 1000;
      clearInterval(sampler);
      times.sort((a, b) => a - b);
      const figure = {
        sizeMiB,
        count: times.length,
        perSecond: times.length / seconds,
        p50Ms: times[Math.floor(times.length / 2)],
        rssBeforeMb: rssBefore / MiB,
        rssPeakMb: rssPeak / MiB,
      };
      uploads.push(figure);
      log(
        `${sizeMiB} MiB uploads ×${figure.count} at ${connections} connections: ` +
          `${figure.perSecond.toFixed(1)}/s, p50 ${figure.p50Ms.toFixed(0)} ms, RSS ` +
          `${figure.rssBeforeMb.toFixed(0)} → peak ${figure.rssPeakMb.toFixed(0)} MB`,
      );
    }

    // The last file (4 MiB): through its signed link, and straight from a driver on the same
    // folder, served by a bare HTTP server in this process (the floor: the same bytes over the
    // same loopback, without the service's checks, lookup and headers).
    const driver = new DirectoryStorage(path.join(dataDir, "files"));
    const floor = http.createServer((_req, res) => {
      void driver.get(lastId).then((stream) => {
        res.setHeader("content-type", "application/pdf");
        stream.pipe(res);
      });
    });
    await new Promise<void>((resolve) => floor.listen(0, "127.0.0.1", resolve));
    const floorAddress = floor.address() as { port: number };
    const floorUrl = new URL(`http://127.0.0.1:${floorAddress.port}/file`);
    const link = new URL(lastLink, running.url);
    const linkTimes: number[] = [];
    const driverTimes: number[] = [];
    const inProcessTimes: number[] = [];
    for (let round = 0; round < rounds; round += 1) {
      const turns: [number[], () => Promise<void>][] = [
        [linkTimes, () => readLink(link)],
        [driverTimes, () => readLink(floorUrl)],
        [inProcessTimes, () => readDriver(driver, lastId)],
      ];
      if (round % 2 === 1) turns.reverse();
      for (const [times, read] of turns) {
        const t0 = performance.now();
        for (let i = 0; i < readsPerRound; i += 1) await read();
        times.push((performance.now() - t0) / readsPerRound);
      }
    }
    const median = (values: number[]) => [...values].sort((a, b) => a - b)[values.length >> 1];
    floor.close();
    const read = {
      linkMs: median(linkTimes),
      driverMs: median(driverTimes),
      inProcessMs: median(inProcessTimes),
      ratio: median(linkTimes.map((time, i) => time / driverTimes[i])),
      sizeMiB: 4,
      rounds,
    };
    log(
      `4 MiB read: signed link ${read.linkMs.toFixed(2)} ms, the driver over a bare HTTP server ` +
        `${read.driverMs.toFixed(2)} ms, ratio ${read.ratio.toFixed(2)} (median of ${rounds} ` +
        `rounds of ${readsPerRound}); the driver consumed in process ${read.inProcessMs.toFixed(2)} ms`,
    );
    return { uploads, read };
  } finally {
    await running.close();
    await connection.close();
    await engine.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

const BOUNDARY = "bench-files-boundary";

function multipart(bytes: Buffer): Buffer {
  const head =
    `--${BOUNDARY}\r\nContent-Disposition: form-data; name="purpose"\r\n\r\nREQUIREMENT\r\n` +
    `--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="bench.pdf"\r\n` +
    "Content-Type: application/pdf\r\n\r\n";
  return Buffer.concat([Buffer.from(head), bytes, Buffer.from(`\r\n--${BOUNDARY}--\r\n`)]);
}

const agent = new http.Agent({ keepAlive: true, maxSockets: 8 });

function send(
  url: URL,
  method: string,
  pathname: string,
  token: string | null,
  body: Buffer,
  type = `multipart/form-data; boundary=${BOUNDARY}`,
): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const request = http.request(
      {
        host: url.hostname,
        port: url.port,
        method,
        path: pathname,
        agent,
        headers: {
          "content-type": type,
          "content-length": String(body.length),
          ...(token ? { authorization: `Bearer ${token}` } : {}),
        },
      },
      (response) => {
        const chunks: Buffer[] = [];
        response.on("data", (chunk: Buffer) => chunks.push(chunk));
        response.on("end", () =>
          resolve({ status: response.statusCode ?? 0, text: Buffer.concat(chunks).toString() }),
        );
      },
    );
    request.on("error", reject);
    request.end(body);
  });
}

async function signIn(url: URL): Promise<string> {
  const answer = await send(
    url,
    "POST",
    "/api/v1/auth/login",
    null,
    Buffer.from(JSON.stringify(ADMIN)),
    "application/json",
  );
  return (JSON.parse(answer.text) as { accessToken: string }).accessToken;
}

/** Reads the whole answer and drops it, as a client would consume it. */
function readLink(link: URL): Promise<void> {
  return new Promise((resolve, reject) => {
    http
      .get(
        { host: link.hostname, port: link.port, path: link.pathname + link.search, agent },
        (response) => {
          if (response.statusCode !== 200) reject(new Error(`link read: ${response.statusCode}`));
          response.on("data", () => undefined);
          response.on("end", resolve);
        },
      )
      .on("error", reject);
  });
}

async function readDriver(driver: DirectoryStorage, key: string): Promise<void> {
  const stream = await driver.get(key);
  for await (const chunk of stream) void chunk;
}

if (require.main === module) {
  measureFileTransfers((line) => console.log(line)).catch((error: unknown) => {
    console.error(error);
    process.exit(1);
  });
}
