/**
 * Reads of office titles and appointments only read: a term past its end date reads as ended
 * and its slot as free, judged from its dates in the query, while its stored document stays
 * as it was until a write that wants the slot (or the background sweep) releases it.
 */
import type { CommandStartedEvent } from "mongodb";
import { approvedMemberOf, bearer } from "../support/factories";
import { rawDb } from "../support/raw-db";
import { shortTermHolder } from "../support/short-term";
import { useScenario } from "../support/scenario";

const WRITES = new Set(["insert", "update", "delete", "findAndModify"]);
/** The collections an office read could write; audit_logs and sessions are written by design. */
const WATCHED = new Set(["offices", "office_holders", "members"]);

const scenario = useScenario();

test("a lapsed term reads as ended, its slot free, with no write to offices, appointments or members", async () => {
  const { app, admin } = scenario();
  const { office, member, holderId } = await shortTermHolder(app, admin, 60_000);
  app.internals.clock.advance(61);

  const writes: CommandStartedEvent[] = [];
  const client = rawDb(app).connection.getClient();
  const listener = (event: CommandStartedEvent) => {
    const collection = event.command[event.commandName] as unknown;
    if (WRITES.has(event.commandName) && WATCHED.has(String(collection))) writes.push(event);
  };
  client.on("commandStarted", listener);
  const get = (path: string) => app.http().get(`/api/v1${path}`).set(bearer(admin));
  try {
    const [one, list, running, all, ofMember] = await Promise.all([
      get(`/offices/${office.id}`),
      get("/offices?limit=100"),
      get(`/offices/${office.id}/holders`),
      get(`/offices/${office.id}/holders?includeEnded=true`),
      get(`/members/${member.id}/offices?includeEnded=true`),
    ]);
    expect(one.body.data.activeHolders).toBe(0);
    const listed = (list.body.data as { id: string; activeHolders: number }[]).find(
      (title) => title.id === office.id,
    );
    expect(listed?.activeHolders).toBe(0);
    expect(running.body.data).toEqual([]);
    expect(all.body.data).toEqual([expect.objectContaining({ id: holderId, isActive: false })]);
    expect(ofMember.body.data).toEqual([
      expect.objectContaining({ id: holderId, isActive: false }),
    ]);
  } finally {
    client.off("commandStarted", listener);
  }
  expect(writes.map((event) => event.commandName)).toEqual([]);
  const stored = await rawDb(app).officeHolders.findById(holderId).lean();
  expect(stored?.releasedAt).toBeNull();

  // The next appointment wants the slot: the lapsed term gives it back there.
  const next = await approvedMemberOf(app, admin);
  const taken = await app
    .http()
    .post(`/api/v1/offices/${office.id}/holders`)
    .set(bearer(admin))
    .send({ memberId: next.id, startDate: "2024-01-01T00:00:00.000Z" });
  expect(taken.status).toBe(201);
  expect((await rawDb(app).officeHolders.findById(holderId).lean())?.releasedAt).not.toBeNull();
  expect((await get(`/offices/${office.id}`)).body.data.activeHolders).toBe(1);
});
