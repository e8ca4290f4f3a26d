/**
 * Two replicas on one database: each remembers the version of a public read for at most
 * VERSION_MAX_AGE_MS (src/db/change-stamps.ts; docs/decisions.md, "The ETag is a version"),
 * so a revalidation shows a write made through the other replica once that bound has passed,
 * and a write made through itself at once.
 */
import { VERSION_MAX_AGE_MS } from "../../src/db/change-stamps";
import { approvedMemberOf } from "../support/factories";
import type { TestApp } from "../support/test-app";
import { twoInstancesWithAdmin } from "../support/two-instances";

const both = twoInstancesWithAdmin();
const DIRECTORY = "/api/v1/members/public/directory-locations";

const revalidate = (app: TestApp, etag: string) =>
  app.http().get(DIRECTORY).set("if-none-match", etag);

/** The directory's ETag and member count on `app`, once it answers 304 to that ETag. */
async function current(app: TestApp): Promise<{ etag: string; total: number }> {
  const read = await app.http().get(DIRECTORY);
  expect(read.status).toBe(200);
  expect((await revalidate(app, read.headers.etag)).status).toBe(304);
  return { etag: read.headers.etag, total: read.body.data.summary.totalMembers };
}

it("shows an approval made through the other replica once the bound has passed", async () => {
  const { first, second, admin } = both;
  const before = await current(first);
  await approvedMemberOf(second, admin, { region: "Caraga" });
  // The bound passes on the service's clock, which the remembered version's age is read by.
  first.internals.clock.advance(Math.ceil(VERSION_MAX_AGE_MS / 1000));
  const after = await revalidate(first, before.etag);
  expect(after.status).toBe(200);
  expect(after.headers.etag).not.toBe(before.etag);
  expect(after.body.data.summary.totalMembers).toBe(before.total + 1);
});

it("shows an approval made through the same replica at once", async () => {
  const { first, admin } = both;
  const before = await current(first);
  await approvedMemberOf(first, admin, { region: "Bicol Region" });
  const after = await revalidate(first, before.etag);
  expect(after.status).toBe(200);
  expect(after.body.data.summary.totalMembers).toBe(before.total + 1);
});
