import express, { type Request, type Response } from "express";
import { assertAccess } from "../graphql/access";
import type { RequestContext } from "../graphql/context";
import { CSV_BOM, csvCell } from "../modules/members/member-csv";
import {
  REPORTS,
  type FunnelRangeInput,
  type ReportName,
} from "../modules/reports/reports.service";
import { Role } from "../modules/users/role";
import type { Json } from "./openapi/openapi-parts";

/** Whether a request for a report asks for CSV: `?format=csv`, or CSV before JSON in Accept. */
function wantsCsv(req: Request): boolean {
  if (req.query.format === "csv") return true;
  if (req.query.format !== undefined) return false;
  return req.accepts(["application/json", "text/csv"]) === "text/csv";
}

/**
 * GET /reports/<name> as CSV, beside the JSON answer Sofa gives for the same path: the same
 * admin check and the same service call, written as RFC 4180 rows with a BOM (as the member
 * export is). A request that does not ask for CSV goes on to the JSON route.
 */
export function addReportCsvRoute(
  router: express.Router,
  buildContext: (req: Request, res: Response) => Promise<RequestContext>,
): void {
  router.get("/reports/:name", async (req, res, next) => {
    const name = req.params.name as ReportName;
    if (!Object.hasOwn(REPORTS, name) || !wantsCsv(req)) return next();
    const context = await buildContext(req, res);
    assertAccess(context, [Role.ADMIN]);
    const report = REPORTS[name];
    // Every report is handed the range a query names; only the funnel reads it.
    const reports = context.services.reports as unknown as Record<
      (typeof report)["field"],
      (range: FunnelRangeInput) => Promise<object[]>
    >;
    const rows = await reports[report.field]({ from: req.query.from, to: req.query.to });
    const lines = rows.map(
      (row) =>
        report.columns
          .map((column) => csvCell((row as Record<string, string | number | null>)[column]))
          .join(",") + "\r\n",
    );
    res.status(200);
    res.setHeader("content-type", "text/csv; charset=utf-8");
    res.setHeader("content-disposition", `attachment; filename="${name}.csv"`);
    res.setHeader("cache-control", "no-store");
    res.setHeader("vary", "Accept");
    res.end(CSV_BOM + report.columns.join(",") + "\r\n" + lines.join(""));
  });
}

/** Each report path's CSV form in the OpenAPI document (Sofa describes only the JSON). */
export function describeReportCsv(openApi: Json): void {
  const paths = openApi.paths as Record<string, Record<string, Json>>;
  for (const [name, report] of Object.entries(REPORTS)) {
    const get = paths[`/reports/${name}`]?.get as
      { parameters?: Json[]; responses: Record<string, { content?: Json }> } | undefined;
    if (!get) throw new Error(`GET /reports/${name} is missing from the REST routes`);
    get.parameters = [
      ...(get.parameters ?? []),
      {
        name: "format",
        in: "query",
        required: false,
        description: "csv: the rows as CSV (also chosen by `Accept: text/csv`)",
        schema: { type: "string", enum: ["csv"] },
      },
    ];
    const ok = get.responses["200"];
    ok.content = {
      ...(ok.content ?? {}),
      "text/csv": {
        schema: { type: "string", format: "binary" },
        example: `${report.columns.join(",")}\r\n`,
      },
    };
  }
}
