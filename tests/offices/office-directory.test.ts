/**
 * Office titles are listed from an in-memory directory (src/modules/offices/office-directory.ts).
 * Two instances on one database: what one writes, the other lists and reads at once; an
 * appointment stops counting when its end date passes, with no write at all.
 */
import { approvedMemberOf, bearer } from "../support/factories";
import type { TestApp } from "../support/test-app";
import { twoInstancesWithAdmin } from "../support/two-instances";

const OFFICES = "/api/v1/offices";
let counter = 0;

const both = twoInstancesWithAdmin();

const unique = (label: string) => `${label} ${Date.now().toString(36)}${(counter += 1)}`;

async function createOffice(app: TestApp, name: string): Promise<string> {
  const response = await app
    .http()
    .post(`${OFFICES}/create`)
    .set(bearer(both.admin))
    .send({ name, level: "CITY_CHAPLAIN", maxSlots: 3 });
  expect(response.status).toBe(201);
  return response.body.data.id as string;
}

async function searchNames(app: TestApp, search: string): Promise<string[]> {
  const response = await app.http().get(OFFICES).query({ search }).set(bearer(both.admin));
  expect(response.status).toBe(200);
  return response.body.data.map((office: { name: string }) => office.name);
}

async function activeHoldersOn(app: TestApp, officeId: string): Promise<number> {
  const response = await app.http().get(`${OFFICES}/${officeId}`).set(bearer(both.admin));
  expect(response.status).toBe(200);
  return response.body.data.activeHolders as number;
}

async function appoint(app: TestApp, officeId: string, memberId: string, endDate?: string) {
  const response = await app
    .http()
    .post(`${OFFICES}/${officeId}/holders`)
    .set(bearer(both.admin))
    .send({ memberId, startDate: "2024-01-01T00:00:00.000Z", endDate });
  expect(response.status).toBe(201);
  return response.body.data.id as string;
}

test("a title created on one instance is listed, searched and read by the other", async () => {
  const name = unique("Directory Chaplain");
  const id = await createOffice(both.first, name);
  expect(await searchNames(both.second, name)).toEqual([name]);
  expect(await activeHoldersOn(both.second, id)).toBe(0);
  const listed = await both.second
    .http()
    .get(OFFICES)
    .query({ limit: 100 })
    .set(bearer(both.admin));
  expect(listed.body.data[0].id).toBe(id);
});

test("a rename on one instance moves the title in the other's search", async () => {
  const before = unique("Before Rename");
  const after = unique("After Rename");
  const id = await createOffice(both.first, before);
  const renamed = await both.second
    .http()
    .put(`${OFFICES}/${id}`)
    .set(bearer(both.admin))
    .send({ name: after });
  expect(renamed.status).toBe(200);
  expect(await searchNames(both.first, before)).toEqual([]);
  expect(await searchNames(both.first, after)).toEqual([after]);
});

test("a rename on one instance re-sorts the other's list by name", async () => {
  const tag = unique("Resort").replace(/\s/g, "");
  const renamedId = await createOffice(both.first, `${tag} A`);
  await createOffice(both.first, `${tag} B`);
  const byName = async () => {
    const response = await both.second
      .http()
      .get(OFFICES)
      .query({ search: tag, sortBy: "name", sortOrder: "asc" })
      .set(bearer(both.admin));
    expect(response.status).toBe(200);
    return response.body.data.map((office: { name: string }) => office.name);
  };
  expect(await byName()).toEqual([`${tag} A`, `${tag} B`]);
  const renamed = await both.first
    .http()
    .put(`${OFFICES}/${renamedId}`)
    .set(bearer(both.admin))
    .send({
      name: `${tag} C`,
    });
  expect(renamed.status).toBe(200);
  expect(await byName()).toEqual([`${tag} B`, `${tag} C`]);
});

test("appointments and their ends on one instance change the other's activeHolders", async () => {
  const id = await createOffice(both.first, unique("Counted Chaplain"));
  const member = await approvedMemberOf(both.first, both.admin);
  const holderId = await appoint(both.first, id, member.id);
  expect(await activeHoldersOn(both.second, id)).toBe(1);
  const ended = await both.second
    .http()
    .patch(`${OFFICES}/${id}/holders/${holderId}/end`)
    .set(bearer(both.admin));
  expect(ended.status).toBe(200);
  expect(await activeHoldersOn(both.first, id)).toBe(0);
});

test("an appointment stops counting once its end date passes, without any write", async () => {
  const id = await createOffice(both.first, unique("Expiring Chaplain"));
  const member = await approvedMemberOf(both.first, both.admin);
  await appoint(both.first, id, member.id, new Date(Date.now() + 1_500).toISOString());
  expect(await activeHoldersOn(both.second, id)).toBe(1);
  await new Promise((resolve) => setTimeout(resolve, 2_000));
  expect(await activeHoldersOn(both.second, id)).toBe(0);
  expect(await activeHoldersOn(both.first, id)).toBe(0);
});

test("erasing an office holder's account updates the other instance's counts", async () => {
  const id = await createOffice(both.first, unique("Erased Holder Chaplain"));
  const member = await approvedMemberOf(both.first, both.admin);
  await appoint(both.first, id, member.id);
  expect(await activeHoldersOn(both.second, id)).toBe(1);
  const erased = await both.first
    .http()
    .delete(`/api/v1/users/${member.user.id}`)
    .set(bearer(both.admin));
  expect(erased.status).toBe(204);
  expect(await activeHoldersOn(both.second, id)).toBe(0);
});

test("a title deleted on one instance is gone from the other", async () => {
  const name = unique("Deleted Chaplain");
  const id = await createOffice(both.first, name);
  expect(await searchNames(both.second, name)).toEqual([name]);
  const deleted = await both.first.http().delete(`${OFFICES}/${id}`).set(bearer(both.admin));
  expect(deleted.status).toBe(204);
  expect((await both.second.http().get(`${OFFICES}/${id}`).set(bearer(both.admin))).status).toBe(
    404,
  );
  expect(await searchNames(both.second, name)).toEqual([]);
});
