import express, { type Request, type Response } from "express";

const startedAt = Date.now();

const ABOUT = {
  name: "Chaplaincy membership API",
  version: "1.0.0",
  graphql: "/graphql",
  docs: "/api/v1/docs",
};

/**
 * `/`: where a newcomer lands. A browser is sent to the REST explorer; anything else gets the
 * same pointers as GET /api/v1/, plus where the REST paths and their OpenAPI document live.
 */
export function serviceRoot(req: Request, res: Response): void {
  if (req.accepts(["application/json", "text/html"]) === "text/html") {
    return res.redirect(302, `${ABOUT.docs}/`);
  }
  res.json({ ...ABOUT, rest: "/api/v1", openapi: "/api/v1/openapi.json" });
}

/** Root metadata and health: plain express, they are about the process, not the domain. */
export function addOperationsRoutes(
  router: express.Router,
  health: { databaseUp(): Promise<boolean> },
): void {
  router.get("/", (_req, res) => {
    res.json(ABOUT);
  });
  router.get("/health", async (_req, res) => {
    const uptime = Math.round((Date.now() - startedAt) / 1000);
    if (await health.databaseUp()) {
      res.json({ status: "ok", db: "up", uptime });
    } else {
      res.status(503).json({ status: "degraded", db: "down", uptime });
    }
  });
}
