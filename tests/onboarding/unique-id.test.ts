import { manilaYear } from "../../src/modules/members/unique-id";
import { applyAs, bearer, buildUser, type TestUser } from "../support/factories";
import { rawDb } from "../support/raw-db";
import { startScenario } from "../support/scenario";
import type { TestApp } from "../support/test-app";
import { API, adminCall, approvedMember } from "../support/onboarding";
import { CurrentMemberProgressDocument } from "../graphql/generated";

let app: TestApp;
let admin: TestUser;

beforeAll(async () => {
  ({ app, admin } = await startScenario());
});
afterAll(() => app?.close());

const year = () => manilaYear(new Date());
const setStatus = (id: string, status: string) =>
  adminCall(app, admin).patch(`/members/${id}/status`, { status, reason: "test" });

describe("uniqueId at approval", () => {
  it("numbers approvals of the year from 00001 in order, and shows it on the Member", async () => {
    const first = await approvedMember(app, admin);
    const second = await approvedMember(app, admin);
    const own = await first.get("/members/me");
    expect(own.body.data[0].uniqueId).toBe(`POI-${year()}-00001`);
    const list = await adminCall(app, admin).get("/members?status=APPROVED");
    const ids = new Map(
      list.body.data.map((m: { id: string; uniqueId: string }) => [m.id, m.uniqueId]),
    );
    expect(ids.get(second.id)).toBe(`POI-${year()}-00002`);
    expect(list.body.data[0].memberType).toBeNull();
  });

  it("gives none to pending or rejected records", async () => {
    const user = await buildUser(app);
    const record = await applyAs(app, user);
    expect(record.uniqueId).toBeNull();
    await setStatus(record.id, "REJECTED");
    const stored = await rawDb(app).members.findById(record.id).lean();
    expect(stored).not.toHaveProperty("uniqueId");
  });

  it("keeps the first one when a record is approved again", async () => {
    const member = await approvedMember(app, admin);
    const before = (await rawDb(app).members.findById(member.id).lean())!.uniqueId;
    expect((await setStatus(member.id, "PENDING")).status).toBe(200);
    const again = await setStatus(member.id, "APPROVED");
    expect(again.body.data.uniqueId).toBe(before);
  });

  it("never gives two records the same number when approvals race", async () => {
    const records = [];
    for (let i = 0; i < 6; i += 1) records.push(await applyAs(app, await buildUser(app)));
    const answers = await Promise.all(records.map((record) => setStatus(record.id, "APPROVED")));
    expect(answers.map((answer) => answer.status)).toEqual(records.map(() => 200));
    const given = answers.map((answer) => answer.body.data.uniqueId as string);
    expect(new Set(given).size).toBe(given.length);
    for (const id of given) expect(id).toMatch(new RegExp(`^POI-${year()}-\\d{5}$`));
  });

  it("is backed by a unique index: a copied uniqueId is refused by the database", async () => {
    const member = await approvedMember(app, admin);
    const other = await approvedMember(app, admin);
    const stored = (await rawDb(app).members.findById(member.id).lean())!;
    await expect(
      rawDb(app).members.collection.updateOne(
        { _id: other.id as never },
        { $set: { uniqueId: stored.uniqueId } },
      ),
    ).rejects.toMatchObject({ code: 11000 });
  });

  it("appears in memberProfile (REST and GraphQL)", async () => {
    const member = await approvedMember(app, admin);
    const current = await app.http().get(`${API}/users/current`).set(bearer(member.user));
    expect(current.body.user.memberProfile.uniqueId).toMatch(/^POI-\d{4}-\d{5}$/);
    const result = await app.graphql(CurrentMemberProgressDocument, {}, member.user.token);
    expect(result.errors).toBeUndefined();
    expect(result.data?.currentUser.user.memberProfile).toMatchObject({
      id: member.id,
      uniqueId: current.body.user.memberProfile.uniqueId,
    });
  });
});
