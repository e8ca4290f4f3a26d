/**
 * `--only=layers`: what each interface's own layers cost on a title by id with the database
 * taken out. REST (the route table, the gate, Sofa, execution, the answer) and /graphql (the
 * service's Apollo set-up and execution), each against an express route answering the same
 * JSON, all in this process over one keep-alive connection, turns alternating. The title comes
 * from a stand-in for OfficeService and the caller is already known, so each difference is the
 * interface's CPU alone, without the engine's round trips that dominate the full scenarios.
 */
import { expressMiddleware } from "@as-integrations/express5";
import express from "express";
import http from "node:http";
import type { AddressInfo } from "node:net";
import type { RequestContext } from "../src/graphql/context";
import { ok } from "../src/graphql/envelopes";
import { createGraphqlServer } from "../src/graphql/graphql-server";
import { buildAppSchemaSync } from "../src/graphql/schema";
import { createRestApi } from "../src/http/rest/rest-api";
import { OfficeLevel } from "../src/modules/offices/office-level";
import { OfficeTitle } from "../src/modules/offices/office.type";
import { Role } from "../src/modules/users/role";
import { inTurns } from "./load";
import { log } from "./options";
import { median } from "./report-sections";
import { selectedAsSofa } from "./scenario";

/** An interface's and its express counterpart's CPU per request, and what the first adds. */
export type LayerCost = { viaMicros: number; floorMicros: number; addedMicros: number };

export async function measureLayers({ rounds = 14, requests = 2_000 } = {}) {
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
  const buildContext = (req: http.IncomingMessage) => {
    if (!contexts.has(req)) contexts.set(req, Promise.resolve(contextOf(req)));
    return contexts.get(req)!;
  };
  const schema = buildAppSchemaSync();
  const rest = createRestApi({
    schema,
    buildContext,
    exposeErrorDetail: false,
    bodyLimitBytes: 1 << 20,
    consumePublicRead: () => Promise.resolve(),
    publicVersion: () => Promise.resolve("bench"),
  });
  const graphql = createGraphqlServer({ schema, introspection: false, exposeErrorDetail: false });
  await graphql.start();
  const app = express();
  app.use("/api/v1", rest.router);
  app.use(
    "/graphql",
    express.json(),
    expressMiddleware(graphql, { context: ({ req }) => buildContext(req) }),
  );
  app.get("/floor/offices/:id", async (_req, res) => {
    res.json(ok(await services.offices.get(), "Office title"));
  });
  app.post("/floor/graphql", express.json(), async (_req, res) => {
    res.json({ data: { office: ok(await services.offices.get(), "Office title") } });
  });
  const server = http.createServer(app).listen(0, "127.0.0.1");
  await new Promise((resolve) => server.once("listening", resolve));
  const { port } = server.address() as AddressInfo;
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  const query = selectedAsSofa(schema, "office");
  const graphqlBody = JSON.stringify({ query, variables: { id: title.id } });
  const send = (path: string, body?: string) =>
    new Promise<string>((resolve, reject) => {
      const headers = body === undefined ? {} : { "content-type": "application/json" };
      const method = body === undefined ? "GET" : "POST";
      http
        .request({ host: "127.0.0.1", port, path, agent, method, headers }, (res) => {
          let text = "";
          res.setEncoding("utf8").on("data", (chunk: string) => (text += chunk));
          res.on("end", () => resolve(`${res.statusCode} ${text.trimEnd()}`));
        })
        .on("error", reject)
        .end(body);
    });
  const sides = [
    { path: `/api/v1/offices/${title.id}` },
    { path: `/floor/offices/${title.id}` },
    { path: "/graphql", body: graphqlBody },
    { path: "/floor/graphql", body: graphqlBody },
  ].map((side) => ({ ...side, micros: [] as number[] }));
  /** CPU of this process (server and client) per request over one turn. */
  const turn = async ({ path, body }: (typeof sides)[number]) => {
    const start = process.cpuUsage();
    for (let i = 0; i < requests; i += 1) await send(path, body);
    const used = process.cpuUsage(start);
    return (used.user + used.system) / requests;
  };
  try {
    // A comparison means something only if both sides answer the same (Apollo ends with a newline).
    for (const [via, floor] of [sides.slice(0, 2), sides.slice(2)]) {
      const [viaAnswer, floorAnswer] = [
        await send(via.path, via.body),
        await send(floor.path, floor.body),
      ];
      if (viaAnswer !== floorAnswer || !viaAnswer.startsWith("200 ")) {
        throw new Error(
          `${via.path} and express answer differently:\n${viaAnswer}\n${floorAnswer}`,
        );
      }
    }
    for (const side of sides) await turn(side);
    await inTurns(sides, rounds, async (side) => side.micros.push(await turn(side)));
  } finally {
    agent.destroy();
    server.close();
    await graphql.stop();
  }
  const cost = (via: number[], floor: number[]): LayerCost => ({
    viaMicros: median(via),
    floorMicros: median(floor),
    /** The rounds' median of the interface's CPU per request less the floor's. */
    addedMicros: median(via.map((micros, round) => micros - floor[round])),
  });
  const [restSide, restFloor, graphqlSide, graphqlFloor] = sides.map((side) => side.micros);
  const result = { rest: cost(restSide, restFloor), graphql: cost(graphqlSide, graphqlFloor) };
  for (const [name, one] of Object.entries(result)) {
    log(
      `${name}'s layers on a title by id, no database: ${one.viaMicros.toFixed(0)} µs, ` +
        `express ${one.floorMicros.toFixed(0)} µs CPU per request (client included); ` +
        `${name} adds ${one.addedMicros.toFixed(0)} µs (rounds' median)`,
    );
  }
  return result;
}
