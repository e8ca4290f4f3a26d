import { bearer, buildUser, minimalApplication, type TestUser } from "../support/factories";
import { startScenario } from "../support/scenario";
import type { TestApp } from "../support/test-app";
import { API, adminCall, approvedMember } from "../support/onboarding";

let app: TestApp;
let admin: TestUser;

beforeAll(async () => {
  ({ app, admin } = await startScenario());
});
afterAll(() => app?.close());

const OATH = { takenAt: "2026-12-05", place: "Manila Cathedral" };

it("an administrator's oath is refused for a member who has not done the steps", async () => {
  const user = await buildUser(app);
  const record = await app
    .http()
    .post(`${API}/members/apply`)
    .set(bearer(user))
    .send(minimalApplication());
  const pending = await adminCall(app, admin).post(`/members/${record.body.data.id}/oath`, {
    takenAt: "2026-12-05",
    place: "Manila",
  });
  expect(pending.status).toBe(409);
  await adminCall(app, admin).patch(`/members/${record.body.data.id}/status`, {
    status: "APPROVED",
  });
  const refused = await adminCall(app, admin).post(`/members/${record.body.data.id}/oath`, {
    takenAt: "2026-12-05",
    place: "Manila",
  });
  expect(refused.status).toBe(409);
  expect(refused.body.message).toMatch(/Upload your 2x2 photo/);
  expect(
    (
      await app
        .http()
        .post(`${API}/members/${record.body.data.id}/oath`)
        .set(bearer(user))
        .send({ takenAt: "2026-12-05", place: "x" })
    ).status,
  ).toBe(403);
});

it("names every open step and the interview in its refusal, and records nothing", async () => {
  const member = await approvedMember(app, admin);
  await member.put("/members/current/payment-checkout", { paymentMethod: "CASH" });
  const refused = await adminCall(app, admin).post(`/members/${member.id}/oath`, OATH);
  expect(refused.status).toBe(409);
  expect(refused.body.message).toMatch(/^The oath needs every other step done first: /);
  expect(refused.body.message).toMatch(/Book your online interview/);
  expect(refused.body.message).toMatch(/pass the online interview/);
  expect(refused.body.message).not.toMatch(/Submit your membership fee/);
  const after = await member.get("/members/current/onboarding-progress");
  expect(after.body.data.completedAt).toBeNull();
  const list = await adminCall(app, admin).get(`/members?status=APPROVED&limit=100`);
  const row = list.body.data.find((item: { id: string }) => item.id === member.id);
  expect(row.memberType).toBeNull();
});

it("refuses a malformed body with a 400 on the field", async () => {
  const member = await approvedMember(app, admin);
  const noPlace = await adminCall(app, admin).post(`/members/${member.id}/oath`, {
    takenAt: "2026-12-05",
  });
  expect(noPlace.status).toBe(400);
  expect(noPlace.body.errors[0].path).toBe("place");
  const badDate = await adminCall(app, admin).post(`/members/${member.id}/oath`, {
    ...OATH,
    takenAt: "next week",
  });
  expect(badDate.status).toBe(400);
  expect(badDate.body.errors[0].path).toBe("takenAt");
});
