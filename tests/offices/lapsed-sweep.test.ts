/**
 * Terms past their end date give their slots back in the background when no appointment asks
 * for one: the sweep (LAPSED_SWEEP_SECONDS) releases each once it has been over for a period.
 */
import { rawDb } from "../support/raw-db";
import { shortTermHolder } from "../support/short-term";
import { useScenario } from "../support/scenario";
import { eventually } from "../support/until";

const scenario = useScenario({ env: { LAPSED_SWEEP_SECONDS: "1" } });

test("a lapsed term is released, its slot and its member's office given back, with no request", async () => {
  const { app, admin } = scenario();
  // Long enough that the sweep (every second, terms over for a second) cannot take it yet.
  const { office, member, holderId } = await shortTermHolder(app, admin, 60_000);
  const db = rawDb(app);
  expect((await db.offices.findById(office.id).lean())?.activeHolders).toBe(1);
  // The term has been over for a second, on the clock the sweep reads.
  app.internals.clock.advance(61);

  // The sweep marks the term released first and gives back the office's slot and the member's
  // office after it: wait for the last of those writes, then check all three.
  const memberAfter = await eventually(
    () => db.members.findById(member.id).lean(),
    (record) => record?.activeOffices === 0,
    15_000,
  );
  expect(memberAfter?.activeOffices).toBe(0);
  expect((await db.officeHolders.findById(holderId).lean())?.releasedAt).toBeInstanceOf(Date);
  expect((await db.offices.findById(office.id).lean())?.activeHolders).toBe(0);
});
