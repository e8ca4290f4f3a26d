/**
 * Terms past their end date give their slots back in the background when no appointment asks
 * for one: the sweep (LAPSED_SWEEP_SECONDS) releases each once it has been over for a period.
 */
import { rawDb } from "../support/raw-db";
import { shortTermHolder } from "../support/short-term";
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
  // Long enough that the sweep (every second, terms over for a second) cannot take it yet.
  const { office, member, holderId } = await shortTermHolder(app, admin, 60_000);
  const db = rawDb(app);
  expect((await db.offices.findById(office.id).lean())?.activeHolders).toBe(1);
  // The term has been over for a second, on the clock the sweep reads.
  app.internals.clock.advance(61);

  const released = await eventually(
    async () => (await db.officeHolders.findById(holderId).lean())?.releasedAt != null,
    15_000,
  );
  expect(released).toBe(true);
  expect((await db.offices.findById(office.id).lean())?.activeHolders).toBe(0);
  expect((await db.members.findById(member.id).lean())?.activeOffices).toBe(0);
});
