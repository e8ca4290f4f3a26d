/**
 * What Apollo Server costs by itself, beside the floor: the service's own Apollo set-up
 * (createGraphqlServer, the same plugins, limits and context builder) over a one-field schema
 * whose resolver returns a constant, against an express route that reads the same JSON body and
 * answers the same JSON. What separates the two is Apollo's pipeline and GraphQL execution.
 */
import { expressMiddleware } from "@as-integrations/express5";
import express from "express";
import { buildSchema } from "graphql";
import type { Config } from "../src/config";
import { createContextBuilder } from "../src/graphql/context";
import { createGraphqlServer } from "../src/graphql/graphql-server";
import type { Logger } from "../src/logger";
import type { Services } from "../src/services";

/** The paths, under the floor's port, of the two routes. */
export const ALONE_PATHS = { express: "/alone/express", apollo: "/alone/graphql" } as const;

export const ALONE_QUERY = `query Office($id: ID!) {
  office(id: $id) { id name level description maxSlots activeHolders createdAt updatedAt }
}`;

const OFFICE = {
  id: "0190f0aa-1111-7222-8333-444455556666",
  name: "Chaplain General",
  level: "NATIONAL",
  description: "Leads the corps of chaplains across the whole organisation.",
  maxSlots: 1,
  activeHolders: 1,
  createdAt: "2026-01-05T09:30:00.000Z",
  updatedAt: "2026-03-17T14:05:00.000Z",
};

const schema = buildSchema(`
  type Office {
    id: ID! name: String! level: String! description: String maxSlots: Int
    activeHolders: Int! createdAt: String! updatedAt: String!
  }
  type Query { office(id: ID!): Office }
`);
schema.getQueryType()!.getFields().office.resolve = () => OFFICE;

/** Both routes, to be mounted on the floor's app (behind the same request shell). */
export async function createApolloAlone(
  services: Services,
  config: Config,
  log: Logger,
): Promise<express.Router> {
  const graphql = createGraphqlServer({ schema, introspection: false, exposeErrorDetail: false });
  await graphql.start();
  const buildContext = createContextBuilder(services, log, { secureCookies: false });
  const router = express.Router();
  const body = express.json({ limit: config.bodyLimitBytes });
  router.post(ALONE_PATHS.express, body, (_req, res) => {
    res.json({ data: { office: OFFICE } });
  });
  router.use(
    ALONE_PATHS.apollo,
    body,
    expressMiddleware(graphql, { context: ({ req, res }) => buildContext(req, res) }),
  );
  return router;
}
