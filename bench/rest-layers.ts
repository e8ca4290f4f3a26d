/**
 * `--only=layers`: what REST's layers (the route table, the gate, Sofa, execution, the answer)
 * cost on a title by id with the database taken out, against an express route answering the
 * same JSON, both in this process over one keep-alive connection, turns alternating. The title
 * comes from a stand-in for OfficeService and the caller is already known, so the difference is
 * the interfaces' CPU alone, without the engine's round trips that dominate the full scenarios.
 */
import express from "express";
import http from "node:http";
import type { AddressInfo } from "node:net";
import type { RequestContext } from "../src/graphql/context";
import { ok } from "../src/graphql/envelopes";
import { buildAppSchemaSync } from "../src/graphql/schema";
import { createRestApi } from "../src/http/rest/rest-api";
import { OfficeLevel } from "../src/modules/offices/office-level";
import { OfficeTitle } from "../src/modules/offices/office.type";
import { Role } from "../src/modules/users/role";
import { inTurns } from "./load";
import { log } from "./options";

export async function measureRestLayers({ rounds = 14, requests = 2_000 } = {}) {
  // graphql-js adds development-time checks to every execution unless told it is production.
  if (process.env.NODE_ENV !== "production") {
    throw new Error("run it as NODE_ENV=production npm run bench -- --only=layers");
  }
  const title = Object.assign(new OfficeTitle(), {
    id: "01a2268d-d265-752c-8ecb-8f20a5136cad",
    name: "City Chaplain of Cebu City",
    level: OfficeLevel.CITY_CHAPLAIN,
    description: "Leads the chaplains of Cebu City",
    maxSlots: 1,
    activeHolders: 1,
    sections: [],
    createdAt: new Date(),
    updatedAt: new Date(),
  });
  const services = { offices: { get: () => Promise.resolve(title) } };
  const contextOf = (req: http.IncomingMessage) =>
    ({
      services,
      req,
      log: undefined,
      requestId: "bench",
      clientRequestId: null,
      client: { ip: null, userAgent: null },
      secureCookies: false,
      caller: { id: "member", role: Role.MEMBER, sessionId: "session" },
    }) as unknown as RequestContext;
  const contexts = new WeakMap<http.IncomingMessage, Promise<RequestContext>>();
  const buildContext = (req: express.Request) => {
    if (!contexts.has(req)) contexts.set(req, Promise.resolve(contextOf(req)));
    return contexts.get(req)!;
  };
  const rest = createRestApi({
    schema: buildAppSchemaSync(),
    buildContext,
    exposeErrorDetail: false,
    bodyLimitBytes: 1 << 20,
    consumePublicRead: () => Promise.resolve(),
    publicVersion: () => Promise.resolve("bench"),
  });
  const app = express();
  app.use("/api/v1", rest.router);
  app.get("/floor/offices/:id", async (_req, res) => {
    res.json(ok(await services.offices.get(), "Office title"));
  });
  const server = http.createServer(app).listen(0, "127.0.0.1");
  await new Promise((resolve) => server.once("listening", resolve));
  const { port } = server.address() as AddressInfo;
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  const get = (path: string) =>
    new Promise<string>((resolve, reject) => {
      http
        .get({ host: "127.0.0.1", port, path, agent }, (res) => {
          let body = "";
          res.setEncoding("utf8").on("data", (chunk: string) => (body += chunk));
          res.on("end", () => resolve(`${res.statusCode} ${body}`));
        })
        .on("error", reject);
    });
  /** CPU of this process (server and client) per request over one turn. */
  const turn = async (path: string) => {
    const start = process.cpuUsage();
    for (let i = 0; i < requests; i += 1) await get(path);
    const used = process.cpuUsage(start);
    return (used.user + used.system) / requests;
  };
  const [restPath, floorPath] = [`/api/v1/offices/${title.id}`, `/floor/offices/${title.id}`];
  const [restAnswer, floorAnswer] = [await get(restPath), await get(floorPath)];
  // The comparison means something only if both sides answer the same.
  if (restAnswer !== floorAnswer || !restAnswer.startsWith("200 ")) {
    throw new Error(`REST and express answer differently:\n${restAnswer}\n${floorAnswer}`);
  }
  const sides = [restPath, floorPath].map((path) => ({ path, micros: [] as number[] }));
  for (const side of sides) await turn(side.path);
  await inTurns(sides, rounds, async (side) => side.micros.push(await turn(side.path)));
  agent.destroy();
  server.close();
  const median = (values: number[]) => [...values].sort((x, y) => x - y)[values.length >> 1];
  const [viaRest, viaFloor] = sides.map((side) => side.micros);
  const result = {
    restMicros: median(viaRest),
    floorMicros: median(viaFloor),
    /** The rounds' median of REST's CPU per request less the floor's. */
    addedMicros: median(viaRest.map((micros, round) => micros - viaFloor[round])),
  };
  log(
    `REST's layers on a title by id, no database: REST ${result.restMicros.toFixed(0)} µs, ` +
      `express ${result.floorMicros.toFixed(0)} µs CPU per request (client included); ` +
      `REST adds ${result.addedMicros.toFixed(0)} µs (rounds' median)`,
  );
  return result;
}
