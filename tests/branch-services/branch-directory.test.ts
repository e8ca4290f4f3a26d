/**
 * Branches of service are listed from an in-memory directory
 * (src/modules/branch-services/branch-directory.ts). Two instances on one database: what one
 * writes, the other lists, searches and reads at once, and names in member records.
 */
import { applyAs, bearer, buildBranchService, buildUser } from "../support/factories";
import type { TestApp } from "../support/test-app";
import { twoInstancesWithAdmin } from "../support/two-instances";

const BRANCHES = "/api/v1/branch-service";
const both = twoInstancesWithAdmin();

async function listed(app: TestApp, query: Record<string, unknown> = {}) {
  // Public: no token needed.
  const response = await app.http().get(BRANCHES).query(query);
  expect(response.status).toBe(200);
  return response.body as {
    data: { id: string; title: string }[];
    pagination: { totalCount: number };
  };
}

/** Renames the branch through `app`; returns the new title. */
async function rename(app: TestApp, branchId: string): Promise<string> {
  const title = `Renamed ${Date.now().toString(36)} ${Math.random().toString(36).slice(2, 6)}`;
  const response = await app
    .http()
    .put(`${BRANCHES}/${branchId}`)
    .set(bearer(both.admin))
    .send({ title });
  expect(response.status).toBe(200);
  return title;
}

test("a branch created on one instance is first in the other's list and readable there", async () => {
  await listed(both.second); // the second instance has loaded its directory before the write
  const branch = await buildBranchService(both.first, both.admin);
  const list = await listed(both.second, { limit: 100 });
  expect(list.data[0]).toMatchObject({ id: branch.id, title: branch.title });
  const read = await both.second.http().get(`${BRANCHES}/${branch.id}`);
  expect(read.status).toBe(200);
  expect(read.body.data.title).toBe(branch.title);
});

test("search looks in titles and descriptions, ignoring case, and counts what it finds", async () => {
  const marker = `Zq${Date.now().toString(36)}`;
  const byTitle = await buildBranchService(both.first, both.admin, { title: `Navy ${marker}` });
  const byDescription = await buildBranchService(both.first, both.admin, {
    description: `Serves the ${marker.toLowerCase()} fleet`,
  });
  await buildBranchService(both.first, both.admin);
  const found = await listed(both.second, { search: marker.toUpperCase() });
  expect(found.data.map((branch) => branch.id)).toEqual([byDescription.id, byTitle.id]);
  expect(found.pagination.totalCount).toBe(2);
  const secondPage = await listed(both.second, { search: marker, limit: 1, page: 2 });
  expect(secondPage.data.map((branch) => branch.id)).toEqual([byTitle.id]);
  expect(secondPage.pagination.totalCount).toBe(2);
});

test("a rename on one instance shows in the other's search; a delete removes it there", async () => {
  const branch = await buildBranchService(both.first, both.admin);
  await listed(both.first); // loaded before the other instance writes
  const renamedTitle = await rename(both.second, branch.id);
  expect((await listed(both.first, { search: branch.title })).data).toEqual([]);
  expect((await listed(both.first, { search: renamedTitle })).data.map((b) => b.id)).toEqual([
    branch.id,
  ]);

  const deleted = await both.first
    .http()
    .delete(`${BRANCHES}/${branch.id}`)
    .set(bearer(both.admin));
  expect(deleted.status).toBe(204);
  expect((await both.second.http().get(`${BRANCHES}/${branch.id}`)).status).toBe(404);
  expect((await listed(both.second, { search: renamedTitle })).data).toEqual([]);
});

test("a write that fails (a duplicate title) leaves both instances' lists as they were", async () => {
  const branch = await buildBranchService(both.first, both.admin);
  const before = await listed(both.second, { limit: 100 });
  const duplicate = await both.second
    .http()
    .post(`${BRANCHES}/create`)
    .set(bearer(both.admin))
    .send({ title: branch.title.toUpperCase(), description: "Twice" });
  expect(duplicate.status).toBe(409);
  expect(await listed(both.second, { limit: 100 })).toEqual(before);
  expect((await listed(both.first, { limit: 100 })).pagination.totalCount).toBe(
    before.pagination.totalCount,
  );
});

test("a member record names its branch by the title the other instance last gave it", async () => {
  const branch = await buildBranchService(both.first, both.admin);
  const applicant = await buildUser(both.first);
  const record = await applyAs(both.first, applicant, { preferredBranchIds: [branch.id] });
  const branchesShown = async () => {
    const response = await both.second.http().get("/api/v1/members/me").set(bearer(applicant));
    expect(response.status).toBe(200);
    const records = (response.body as { data: { id: string; preferredBranches: unknown[] }[] })
      .data;
    expect(records.map((shown) => shown.id)).toEqual([record.id]);
    return records[0].preferredBranches;
  };
  expect(await branchesShown()).toEqual([{ id: branch.id, title: branch.title }]);

  const renamedTitle = await rename(both.first, branch.id);
  expect(await branchesShown()).toEqual([{ id: branch.id, title: renamedTitle }]);
});
