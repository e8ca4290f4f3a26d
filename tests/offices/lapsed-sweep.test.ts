/**
 * Terms past their end date give their slots back in the background when no appointment asks
 * for one: the sweep (LAPSED_SWEEP_SECONDS) releases each once it has been over for a period.
 */
import { approvedMemberOf, bearer, buildOffice } from "../support/factories";
import { rawDb } from "../support/raw-db";
import { useScenario } from "../support/scenario";

const scenario = useScenario({ env: { LAPSED_SWEEP_SECONDS: "1" } });

/** Polls `check` until it holds or `ms` pass; answers whether it held. */
async function eventually(check: () => Promise<boolean>, ms: number): Promise<boolean> {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    if (await check()) return true;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  return check();
}

test("a lapsed term is released, its slot and its member's office given back, with no request", async () => {
  const { app, admin } = scenario();
  const office = await buildOffice(app, admin, { maxSlots: 1 });
  const member = await approvedMemberOf(app, admin);
  const appointed = await app
    .http()
    .post(`/api/v1/offices/${office.id}/holders`)
    .set(bearer(admin))
    .send({
      memberId: member.id,
      startDate: "2024-01-01T00:00:00.000Z",
      endDate: new Date(Date.now() + 1_000).toISOString(),
    });
  expect(appointed.status).toBe(201);
  const holderId = appointed.body.data.id as string;
  const db = rawDb(app);
  expect((await db.offices.findById(office.id).lean())?.activeHolders).toBe(1);

  const released = await eventually(
    async () => (await db.officeHolders.findById(holderId).lean())?.releasedAt != null,
    15_000,
  );
  expect(released).toBe(true);
  expect((await db.offices.findById(office.id).lean())?.activeHolders).toBe(0);
  expect((await db.members.findById(member.id).lean())?.activeOffices).toBe(0);
});
