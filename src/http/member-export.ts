import { once } from "node:events";
import express, { type Request, type Response } from "express";
import type { GraphQLSchema } from "graphql";
import qs from "qs";
import { assertAccess } from "../graphql/access";
import type { RequestContext } from "../graphql/context";
import { entryFor } from "../modules/audit/audit-log.service";
import { CSV_BOM, CSV_HEADER, csvRow } from "../modules/members/member-csv";
import { Role } from "../modules/users/role";
import { errorResponses, type Json } from "./openapi/openapi-parts";
import { SHARED_ERRORS } from "./openapi/openapi";
import { checkArguments } from "./rest/rest-api";

/** The export's path under /api/v1 (documented by describeMemberExport below). */
export const MEMBER_EXPORT_PATH = "/members/export.csv";
/** The arguments of GET /members the export honours: its filters, not its paging. */
export const MEMBER_EXPORT_FILTERS: readonly string[] = ["status", "search", "includeArchived"];
export const MEMBER_EXPORT_ROLES: readonly Role[] = [Role.ADMIN];

/**
 * GET /members/export.csv: the records GET /members would list with the same filters (all
 * pages), as CSV, streamed: records are read in batches and written as the client takes them,
 * so memory stays flat however many there are. Admin only; each export is audited.
 */
export function addMemberExportRoute(
  router: express.Router,
  schema: GraphQLSchema,
  buildContext: (req: Request, res: Response) => Promise<RequestContext>,
): void {
  const listArgs = schema.getQueryType()!.getFields().members.args;
  router.get(MEMBER_EXPORT_PATH, async (req, res) => {
    const context = await buildContext(req, res);
    assertAccess(context, MEMBER_EXPORT_ROLES);
    const raw = qs.parse(req.originalUrl.split("?")[1] ?? "");
    const { status, search, includeArchived } = checkArguments(
      listArgs.filter((arg) => MEMBER_EXPORT_FILTERS.includes(arg.name)),
      raw,
    ) as { status?: string; search?: string; includeArchived?: boolean };
    const query = { status: status as never, search, includeArchived: includeArchived === true };
    await context.services.audit.record(
      entryFor(context, { action: "member.export", targetType: "member", targetId: null }),
    );
    res.status(200);
    res.setHeader("content-type", "text/csv; charset=utf-8");
    res.setHeader("content-disposition", 'attachment; filename="members.csv"');
    res.setHeader("cache-control", "no-store");
    try {
      await write(res, CSV_BOM + CSV_HEADER);
      for await (const record of context.services.members.exportRecords(query)) {
        if (res.destroyed) return;
        await write(res, csvRow(record));
      }
      res.end();
    } catch (error) {
      // The status line is gone already: cut the download short rather than end it as complete.
      context.log.error({ err: error }, "member export interrupted");
      res.destroy();
    }
  });
}

/** Waits for the client when its buffer is full: the backpressure that bounds memory. */
async function write(res: Response, chunk: string): Promise<void> {
  if (!res.write(chunk)) await Promise.race([once(res, "drain"), once(res, "close")]);
}

/**
 * The export in the OpenAPI document: a plain express route, so Sofa does not describe it. Its
 * filters are taken from GET /members as documented (defaults included), so the two cannot drift
 * apart; its gate is the same admin check as the list's.
 */
export function describeMemberExport(openApi: Json): void {
  const paths = openApi.paths as Record<string, Record<string, Json>>;
  const list = paths["/members"]?.get;
  const parameters = ((list?.parameters ?? []) as { name: string }[]).filter((parameter) =>
    MEMBER_EXPORT_FILTERS.includes(parameter.name),
  );
  if (!list || parameters.length !== MEMBER_EXPORT_FILTERS.length)
    throw new Error(`GET /members lacks one of the export's filters`);
  paths[MEMBER_EXPORT_PATH] = {
    get: {
      operationId: "exportMembersCsv",
      summary: "Member records as one CSV download",
      description:
        `Roles: ${MEMBER_EXPORT_ROLES.join(", ")}. Every record GET /members selects with the ` +
        "same filters (all pages, newest first) as one CSV download, streamed as it is read; " +
        "each export is audited. Not a GraphQL operation.",
      tags: structuredClone(list.tags ?? ["Members"]),
      security: [{ bearerAuth: [] }],
      parameters: structuredClone(parameters),
      responses: {
        "200": {
          description:
            "CSV (RFC 4180, UTF-8, CRLF after each row): a header row, then one row per record. " +
            `Columns: ${CSV_HEADER.trim().split(",").join(", ")}. SSS and TIN numbers are opened. ` +
            "A cell a spreadsheet would run as a formula (starting with =, +, -, @) gets a leading apostrophe.",
          headers: {
            "Content-Disposition": {
              description: 'Always `attachment; filename="members.csv"`',
              schema: { type: "string" },
            },
          },
          content: {
            "text/csv": { schema: { type: "string", format: "binary" }, example: CSV_HEADER },
          },
        },
        ...errorResponses([...SHARED_ERRORS, 401, 403]),
      },
    },
  };
}
