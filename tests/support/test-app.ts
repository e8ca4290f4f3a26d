import "reflect-metadata";
import { randomBytes } from "node:crypto";
import path from "node:path";
import { print } from "graphql";
import type { TypedDocumentNode } from "@graphql-typed-document-node/core";
import supertest from "supertest";
import { loadConfig, type Config } from "../../src/config";
import { connectDatabase } from "../../src/db/connection";
import { createLogger } from "../../src/logger";
import { startServer, type RunningServer } from "../../src/server";

export const TEST_JWT_SECRET = "test-secret-0123456789-abcdefghijklmnopqrstuvwxyz";

export interface TestApp {
  url: string;
  config: Config;
  services: RunningServer["services"];
  http: () => supertest.Agent;
  graphql: <R, V extends Record<string, unknown>>(
    document: TypedDocumentNode<R, V>,
    variables?: V,
    token?: string,
  ) => Promise<GraphqlResult<R>>;
  close: () => Promise<void>;
}

export interface GraphqlResult<R> {
  status: number;
  data?: R | null;
  errors?: {
    message: string;
    extensions: { code: string; status?: number; errors?: { path: string; message: string }[] };
  }[];
}

/**
 * The real app on a real HTTP port against the run's engine, in a database of this test
 * file's own (dropped on close), so files run alone or together without seeing each other.
 */
export async function startTestApp(
  env: Record<string, string> = {},
  engineUri?: string,
): Promise<TestApp> {
  const uri = engineUri ?? process.env.TEST_MONGODB_URI;
  if (!uri)
    throw new Error("TEST_MONGODB_URI is not set: run the tests through jest (global setup)");
  const testFile = path.basename(expect.getState().testPath ?? "test", ".test.ts");
  const config = loadConfig({
    NODE_ENV: "test",
    PORT: "0",
    HOST: "127.0.0.1",
    JWT_SECRET: TEST_JWT_SECRET,
    DATA_DIR: process.env.TEST_DATA_DIR ?? "data",
    DB_NAME: `t_${testFile.replace(/\W/g, "_").slice(0, 40)}_${randomBytes(3).toString("hex")}`,
    BCRYPT_COST: "4",
    LOG_LEVEL: "silent",
    ...env,
  });
  const connection = await connectDatabase({ uri, dbName: config.dbName });
  const running = await startServer(config, createLogger(config), connection);
  return {
    url: running.url,
    config,
    services: running.services,
    http: () => supertest.agent(running.url),
    graphql: async (document, variables, token) => {
      const request = supertest(running.url)
        .post("/graphql")
        .set("content-type", "application/json");
      if (token) request.set("authorization", `Bearer ${token}`);
      const response = await request.send({ query: print(document), variables: variables ?? {} });
      return { status: response.status, ...(response.body as object) };
    },
    close: async () => {
      await running.close();
      await connection.dropDatabase();
      await connection.close();
    },
  };
}
