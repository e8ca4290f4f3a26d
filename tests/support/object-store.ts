import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { S3Storage } from "../../src/storage/s3-storage";
import { findWeed } from "../../tools/object-store/weed-build";
import { freePort } from "./free-port";

export const S3_TEST_CREDENTIALS = {
  accessKeyId: "test-files-access-key",
  secretAccessKey: "test-files-secret-key-0123456789",
};

export interface RunningObjectStore {
  endpoint: string;
  dataDir: string;
  /** The service's settings for storing its files in `bucket` of this server. */
  envFor: (bucket: string) => Record<string, string>;
  /** A driver of `bucket` with the test credentials (or others), to look at what is stored. */
  driverOf: (bucket: string, credentials?: typeof S3_TEST_CREDENTIALS) => S3Storage;
  stop: () => Promise<void>;
}

/**
 * A real S3-compatible server for the S3 driver's tests: SeaweedFS's `weed server -s3` on free
 * ports in a temporary directory, with an admin identity from the environment, stopped (and
 * its data removed) by `stop`. Built by `npm run object-store:install` (CI runs it).
 */
export async function startObjectStore(): Promise<RunningObjectStore> {
  const weed = findWeed();
  if (!weed) throw new Error("SeaweedFS is not built: run `npm run object-store:install` first");
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "object-store-"));
  const ports = await Promise.all(Array.from({ length: 7 }, () => freePort()));
  const [master, masterGrpc, volume, volumeGrpc, filer, filerGrpc, s3] = ports;
  const child: ChildProcess = spawn(
    weed,
    [
      "server",
      `-dir=${dataDir}`,
      "-ip=127.0.0.1",
      "-ip.bind=127.0.0.1",
      `-master.port=${master}`,
      `-master.port.grpc=${masterGrpc}`,
      "-master.telemetry=false",
      "-master.volumeSizeLimitMB=64",
      `-volume.port=${volume}`,
      `-volume.port.grpc=${volumeGrpc}`,
      "-filer",
      `-filer.port=${filer}`,
      `-filer.port.grpc=${filerGrpc}`,
      `-filer.localSocket=${path.join(dataDir, "filer.sock")}`,
      "-s3",
      `-s3.port=${s3}`,
      "-s3.port.iceberg=0",
      "-s3.port.lance=0",
    ],
    {
      env: {
        ...process.env,
        AWS_ACCESS_KEY_ID: S3_TEST_CREDENTIALS.accessKeyId,
        AWS_SECRET_ACCESS_KEY: S3_TEST_CREDENTIALS.secretAccessKey,
      },
      stdio: ["ignore", "ignore", "pipe"],
    },
  );
  let stderr = "";
  child.stderr?.on("data", (chunk: Buffer) => {
    stderr = (stderr + chunk.toString()).slice(-4000);
  });
  const stop = async () => {
    if (child.exitCode === null) {
      const exited = new Promise((resolve) => child.once("exit", resolve));
      child.kill("SIGTERM");
      const timer = setTimeout(() => child.kill("SIGKILL"), 5000);
      await exited;
      clearTimeout(timer);
    }
    fs.rmSync(dataDir, { recursive: true, force: true });
  };
  const endpoint = `http://127.0.0.1:${s3}`;
  const deadline = Date.now() + 60_000;
  while (!(await accepts(s3))) {
    if (child.exitCode !== null || Date.now() > deadline) {
      await stop();
      throw new Error(`SeaweedFS did not start:\n${stderr}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  const envFor = (bucket: string) => ({
    FILE_STORAGE_URL: `s3://${bucket}`,
    S3_ENDPOINT: endpoint,
    S3_ACCESS_KEY_ID: S3_TEST_CREDENTIALS.accessKeyId,
    S3_SECRET_ACCESS_KEY: S3_TEST_CREDENTIALS.secretAccessKey,
    S3_FORCE_PATH_STYLE: "true",
  });
  const driverOf = (bucket: string, credentials = S3_TEST_CREDENTIALS) =>
    new S3Storage({ bucket, endpoint, region: "us-east-1", forcePathStyle: true, ...credentials });
  return { endpoint, dataDir, envFor, driverOf, stop };
}

function accepts(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect(port, "127.0.0.1");
    socket.once("connect", () => {
      socket.destroy();
      resolve(true);
    });
    socket.once("error", () => resolve(false));
  });
}
