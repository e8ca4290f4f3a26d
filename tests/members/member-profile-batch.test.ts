/**
 * `User.memberProfile` on a page of users: each user's field asks for its own profile, and
 * the asks of one answer reach the database as one query (dataloader), not one per user.
 */
import type { CommandStartedEvent } from "mongodb";
import { applyAs, bearer, buildUser } from "../support/factories";
import { rawDb } from "../support/raw-db";
import { useScenario } from "../support/scenario";

const scenario = useScenario();

test("a page of users with their member profiles reads the member records once", async () => {
  const { app, admin } = scenario();
  const applicants = await Promise.all([buildUser(app), buildUser(app), buildUser(app)]);
  for (const applicant of applicants) await applyAs(app, applicant);

  const memberReads: CommandStartedEvent[] = [];
  const client = rawDb(app).connection.getClient();
  const listener = (event: CommandStartedEvent) => {
    if (event.commandName === "find" && event.command.find === "members") memberReads.push(event);
  };
  client.on("commandStarted", listener);
  let users: { id: string; memberProfile: { status: string } | null }[];
  try {
    const response = await app.http().get("/api/v1/users").query({ limit: 100 }).set(bearer(admin));
    expect(response.status).toBe(200);
    users = response.body.users as typeof users;
  } finally {
    client.off("commandStarted", listener);
  }

  // The three applicants, the administrator and the bootstrap administrator at least.
  expect(users.length).toBeGreaterThanOrEqual(5);
  for (const applicant of applicants) {
    expect(users.find((user) => user.id === applicant.id)?.memberProfile?.status).toBe("PENDING");
  }
  expect(memberReads).toHaveLength(1);
});

test("a page of member records reads their applicants' accounts in one query", async () => {
  const { app, admin } = scenario();
  const applicants = await Promise.all([buildUser(app), buildUser(app), buildUser(app)]);
  for (const applicant of applicants) await applyAs(app, applicant);

  const accountReads: Record<string, unknown>[] = [];
  const client = rawDb(app).connection.getClient();
  const listener = (event: CommandStartedEvent) => {
    const filter = event.command.filter as { _id?: { $in?: unknown } } | undefined;
    if (event.command.find === "users" && filter?._id?.$in) accountReads.push(filter);
  };
  client.on("commandStarted", listener);
  try {
    const response = await app
      .http()
      .get("/api/v1/members")
      .query({ limit: 100 })
      .set(bearer(admin));
    expect(response.status).toBe(200);
    const emails = (response.body.data as { user: { email: string } }[]).map((m) => m.user.email);
    expect(emails).toEqual(expect.arrayContaining(applicants.map((applicant) => applicant.email)));
  } finally {
    client.off("commandStarted", listener);
  }
  expect(accountReads).toHaveLength(1);
});
