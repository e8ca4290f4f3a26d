import type { NextFunction, Request, Response } from "express";
import type { GraphQLObjectType, GraphQLSchema } from "graphql";
import { CSV_BOM, CSV_HEADER, csvRow } from "../modules/members/member-csv";
import type { MemberRecord } from "../modules/members/member.model";
import { listRecords } from "./mock-lists";
import { MOCK_SEED } from "./mock-records";

/** Across the top of both explorers: nobody mistakes the mock for the service. */
export const MOCK_BANNER =
  "MOCK SERVER: made-up data, nothing is stored. Any bearer token signs in as an administrator.";

/** `X-Mock: true` on every answer, so a client (or its developer) can tell where it is talking. */
export function markAsMock(_req: Request, res: Response, next: NextFunction): void {
  res.setHeader("X-Mock", "true");
  next();
}

/**
 * GET /members/export.csv over the mocked members, with GET /members's filters: the service's
 * own columns and quoting, from the rows GET /members would list.
 */
export function mockMemberCsv(
  schema: GraphQLSchema,
  query: Record<string, unknown>,
  seed = MOCK_SEED,
): string {
  const type = schema.getType("Member") as GraphQLObjectType;
  const args = {
    status: typeof query.status === "string" ? query.status : undefined,
    search: typeof query.search === "string" ? query.search : undefined,
    includeArchived: query.includeArchived === "true",
  };
  const rows = listRecords(type, args, seed).map((member) =>
    csvRow({
      ...member,
      _id: member.id,
      searchEmail: (member.user as { email?: string } | null)?.email,
      createdAt: new Date(String(member.createdAt)),
      dateOfBirth: new Date(String(member.dateOfBirth)),
    } as unknown as MemberRecord),
  );
  return CSV_BOM + CSV_HEADER + rows.join("");
}
