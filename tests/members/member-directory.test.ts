/**
 * Two instances of the service on one database: what one writes, the other lists at once
 * (the member directory reads the shared change feed before it answers).
 */
import { MemberStatus } from "../../src/modules/members/member.enums";
import { applyAs, bearer, buildUser } from "../support/factories";
import type { TestApp } from "../support/test-app";
import { twoInstancesWithAdmin } from "../support/two-instances";

const both = twoInstancesWithAdmin();

async function listed(app: TestApp, query: Record<string, string | boolean> = {}) {
  const response = await app.http().get("/api/v1/members").query(query).set(bearer(both.admin));
  expect(response.status).toBe(200);
  return response.body as {
    data: { id: string; status: string; isActive: boolean }[];
    pagination: { totalCount: number };
  };
}

test("an application made on one instance is listed, counted and found by the other", async () => {
  const before = (await listed(both.second)).pagination.totalCount;
  const applicant = await buildUser(both.first);
  const record = await applyAs(both.first, applicant, { lastName: "Magbanua-Directory" });

  const page = await listed(both.second);
  expect(page.pagination.totalCount).toBe(before + 1);
  expect(page.data[0].id).toBe(record.id);
  const found = await listed(both.second, { search: "magbanua-directory" });
  expect(found.data.map((member) => member.id)).toEqual([record.id]);
});

test("a decision taken on one instance shows in the other's status filter", async () => {
  const applicant = await buildUser(both.first);
  const record = await applyAs(both.first, applicant);
  const decided = await both.second
    .http()
    .patch(`/api/v1/members/${record.id}/status`)
    .set(bearer(both.admin))
    .send({ status: MemberStatus.APPROVED });
  expect(decided.status).toBe(200);

  const approved = await listed(both.first, { status: MemberStatus.APPROVED });
  expect(approved.data.map((member) => member.id)).toContain(record.id);
  const pending = await both.first.http().get("/api/v1/members/pending").set(bearer(both.admin));
  expect(pending.body.data.map((member: { id: string }) => member.id)).not.toContain(record.id);
});

test("archiving on one instance hides the record from the other's default list", async () => {
  const applicant = await buildUser(both.first);
  const record = await applyAs(both.first, applicant);
  expect((await listed(both.second)).data.map((member) => member.id)).toContain(record.id);

  const archived = await both.first
    .http()
    .patch(`/api/v1/members/${record.id}/archive`)
    .set(bearer(both.admin));
  expect(archived.status).toBe(200);

  expect((await listed(both.second)).data.map((member) => member.id)).not.toContain(record.id);
  const withArchived = await listed(both.second, { includeArchived: true });
  const entry = withArchived.data.find((member) => member.id === record.id);
  expect(entry?.isActive).toBe(false);
});

test("erasing an account on one instance removes its records from the other's lists", async () => {
  const applicant = await buildUser(both.first);
  const record = await applyAs(both.first, applicant, { lastName: "Erased-Everywhere" });
  expect((await listed(both.second, { search: "erased-everywhere" })).pagination.totalCount).toBe(
    1,
  );

  const erased = await both.first
    .http()
    .delete(`/api/v1/users/${applicant.id}`)
    .set(bearer(both.admin));
  expect(erased.status).toBe(204);

  const afterwards = await listed(both.second, {
    search: "erased-everywhere",
    includeArchived: true,
  });
  expect(afterwards.pagination.totalCount).toBe(0);
  const direct = await both.second.services.models.members.findById(record.id).lean();
  expect(direct).toBeNull();
});

test("a changed email is searchable on the other instance", async () => {
  const applicant = await buildUser(both.first);
  const record = await applyAs(both.first, applicant);
  const newEmail = `renamed-${Date.now()}@example.org`;
  const changed = await both.first
    .http()
    .put("/api/v1/users/current")
    .set(bearer(applicant))
    .send({ email: newEmail });
  expect(changed.status).toBe(200);

  const found = await listed(both.second, { search: newEmail.toUpperCase() });
  expect(found.data.map((member) => member.id)).toEqual([record.id]);
});
