import path from "node:path";
import express from "express";
import { DASHBOARD_SCRIPT } from "./dashboard-script";

const CHARTS = [
  ["members-by-status", "Members by status"],
  ["members-by-region", "Approved members by region"],
  ["members-by-month", "Approvals by month"],
  ["onboarding-funnel", "Onboarding: members at each step now, median days each took"],
  ["payments-by-month", "Verified payments by month"],
  ["interviews", "Interviews by interviewer and outcome"],
] as const;

const PAGE = [
  "<!doctype html>",
  '<html lang="en"><head><meta charset="utf-8">',
  "<title>Membership dashboard</title>",
  '<meta name="viewport" content="width=device-width, initial-scale=1">',
  '<link rel="stylesheet" href="/admin/assets/dashboard.css">',
  // No favicon to fetch (a 404 in the console otherwise).
  '<link rel="icon" href="data:,">',
  "</head><body>",
  "<h1>Membership dashboard</h1>",
  '<form id="sign-in">',
  '<label>Email <input name="email" type="email" autocomplete="username" required></label>',
  '<label>Password <input name="password" type="password" autocomplete="current-password" required></label>',
  '<button type="submit">Sign in</button>',
  "</form>",
  '<p id="status" role="status"></p>',
  '<main id="charts" hidden>',
  ...CHARTS.map(
    ([id, title]) =>
      `<section><h2>${title}</h2><canvas id="${id}" width="560" height="280"></canvas></section>`,
  ),
  "</main>",
  '<script src="/admin/assets/chart.umd.min.js"></script>',
  '<script src="/admin/assets/dashboard.js"></script>',
  "</body></html>",
].join("\n");

const STYLE = [
  "body{font:15px/1.4 system-ui,sans-serif;margin:24px;color:#18181b}",
  "form{display:flex;gap:12px;align-items:end;flex-wrap:wrap}",
  "label{display:flex;flex-direction:column;gap:4px}",
  "main{display:grid;grid-template-columns:repeat(auto-fill,minmax(580px,1fr));gap:16px}",
  "section{border:1px solid #e4e4e7;border-radius:8px;padding:12px}",
  "h2{font-size:16px;margin:0 0 8px}",
].join("\n");

/**
 * GET /admin/dashboard: a page where an administrator signs in (POST /api/v1/auth/login) and
 * sees the reports as charts. Chart.js is served from node_modules by this service and the
 * page's own script is a file: no outside host and no inline script, so the CSP is kept as is.
 */
export function dashboardRoutes(): express.Router {
  const router = express.Router();
  const chartJs = path.join(path.dirname(require.resolve("chart.js")), "chart.umd.min.js");
  router.get("/dashboard", (_req, res) => {
    res.type("html").setHeader("cache-control", "no-store").send(PAGE);
  });
  router.get("/assets/chart.umd.min.js", (_req, res) => res.sendFile(chartJs, { maxAge: "1d" }));
  router.get("/assets/dashboard.js", (_req, res) =>
    res
      .type("application/javascript")
      .setHeader("cache-control", "no-cache")
      .send(DASHBOARD_SCRIPT),
  );
  router.get("/assets/dashboard.css", (_req, res) => res.type("css").send(STYLE));
  return router;
}
