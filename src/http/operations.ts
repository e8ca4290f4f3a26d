import express from "express";
import type { Connection } from "mongoose";
import { isDatabaseUp } from "../db/connection";

const startedAt = Date.now();

/** Root metadata and health: plain express, they are about the process, not the domain. */
export function operationsRoutes(connection: Connection): express.Router {
  const router = express.Router();
  router.get("/", (_req, res) => {
    res.json({
      name: "Chaplaincy membership API",
      version: "1.0.0",
      graphql: "/graphql",
      docs: "/api/v1/docs",
    });
  });
  router.get("/health", async (_req, res) => {
    const uptime = Math.round((Date.now() - startedAt) / 1000);
    if (await isDatabaseUp(connection)) {
      res.json({ status: "ok", db: "up", uptime });
    } else {
      res.status(503).json({ status: "degraded", db: "down", uptime });
    }
  });
  return router;
}
