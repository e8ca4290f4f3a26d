/**
 * Issue 8, point 6: GET /members/export.csv gives administrators the records GET /members
 * selects (all pages) as CSV, with the same filters, numbers readable, cells safe to open in a
 * spreadsheet; every export is audited.
 */
import { randomBytes } from "node:crypto";
import { applyAs, bearer, buildUser, type TestUser } from "../support/factories";
import type { TestApp } from "../support/test-app";
import { startScenario } from "../support/scenario";

const EXPORT = "/api/v1/members/export.csv";
let app: TestApp;
let admin: TestUser;
const tag = `Csv${randomBytes(3).toString("hex")}`;

beforeAll(async () => {
  ({ app, admin } = await startScenario());
  for (let index = 0; index < 3; index += 1) {
    await applyAs(app, await buildUser(app), {
      lastName: `${tag}${index}`,
      sssNumber: `34-000000${index}-1`,
    });
  }
  await applyAs(app, await buildUser(app), {
    firstName: '=HYPERLINK("http://evil.example")',
    lastName: `O"Brien, ${tag} Jr`,
    homeAddress: "Line one\nLine two",
  });
});
afterAll(() => app?.close());

/** RFC 4180 parsing, enough for the test: quoted cells with doubled quotes and line breaks. */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = "";
  let quoted = false;
  const endCell = () => {
    row.push(cell);
    cell = "";
  };
  for (let i = 0; i < text.length; i += 1) {
    const char = text[i];
    if (quoted && char === '"' && text[i + 1] === '"') {
      cell += '"';
      i += 1;
    } else if (char === '"') {
      quoted = !quoted;
    } else if (!quoted && char === ",") {
      endCell();
    } else if (!quoted && char === "\r" && text[i + 1] === "\n") {
      endCell();
      rows.push(row);
      row = [];
      i += 1;
    } else {
      cell += char;
    }
  }
  return rows;
}

async function exported(query: Record<string, string> = {}, as: TestUser = admin) {
  const response = await app
    .http()
    .get(EXPORT)
    .query(query)
    .set(bearer(as))
    .buffer(true)
    .parse((res, done) => {
      let body = "";
      res.setEncoding("utf8");
      res.on("data", (chunk: string) => (body += chunk));
      res.on("end", () => done(null, body));
    });
  return response;
}

function byColumn(csv: string): Record<string, string>[] {
  const [header, ...rows] = parseCsv(csv);
  return rows.map((row) => Object.fromEntries(header.map((name, index) => [name, row[index]])));
}

it("streams every selected record as CSV with a header, newest first, numbers readable", async () => {
  const response = await exported({ search: tag });
  expect(response.status).toBe(200);
  expect(response.headers["content-type"]).toBe("text/csv; charset=utf-8");
  expect(response.headers["content-disposition"]).toBe('attachment; filename="members.csv"');
  const rows = byColumn(response.body as string);
  expect(rows).toHaveLength(4);
  expect(rows.slice(1).map((row) => row.lastName)).toEqual([`${tag}2`, `${tag}1`, `${tag}0`]);
  expect(rows[3]).toMatchObject({ status: "PENDING", archived: "no", sssNumber: "34-0000000-1" });
  expect(rows[3].email).toMatch(/@example\.org$/);
});

it("quotes commas, quotes and line breaks, and defuses formulas", async () => {
  const rows = byColumn((await exported({ search: 'o"brien' })).body as string);
  expect(rows).toHaveLength(1);
  expect(rows[0].firstName).toBe(`'=HYPERLINK("http://evil.example")`);
  expect(rows[0].lastName).toBe(`O"Brien, ${tag} Jr`);
  expect(rows[0].homeAddress).toBe("Line one\nLine two");
});

it("applies the list filters and refuses bad ones with 400", async () => {
  expect(byColumn((await exported({ search: tag, status: "APPROVED" })).body as string)).toEqual(
    [],
  );
  const bad = await exported({ status: "MAYBE" });
  expect(bad.status).toBe(400);
  expect(JSON.parse(bad.body as string)).toMatchObject({ code: "VALIDATION_ERROR" });
});

it("is for administrators only and audited", async () => {
  const member = await buildUser(app);
  expect((await exported({}, member)).status).toBe(403);
  expect((await app.http().get(EXPORT)).status).toBe(401);
  const response = await app
    .http()
    .get(EXPORT)
    .set(bearer(admin))
    .set("x-request-id", `export-${tag}`);
  expect(response.status).toBe(200);
  const audit = await app
    .http()
    .get("/api/v1/audit-logs")
    .query({ action: "member.export", limit: 100 })
    .set(bearer(admin));
  expect(audit.body.data).toEqual(
    expect.arrayContaining([
      expect.objectContaining({
        actorId: admin.id,
        targetId: null,
        clientRequestId: `export-${tag}`,
      }),
    ]),
  );
});
