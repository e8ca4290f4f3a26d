import mongoose from "mongoose";
import { TIME_SLOTS } from "../../src/modules/interviews/interview-calendar";
import type { InterviewerRecord } from "../../src/modules/interviews/interview.model";
import { Role } from "../../src/modules/users/role";
import { approvedMemberOf, bearer, buildUser } from "../support/factories";
import { rawDb } from "../support/raw-db";
import { useScenario } from "../support/scenario";

const scenario = useScenario({
  users: {
    officer: { role: Role.OFFICER, name: "Rev. Ána Reyes" },
    staff: { role: Role.OFFICER, name: "Officer Two" },
    member: {},
  },
});
const api = () => scenario().app.http();
const interviewers = () => scenario().app.connection.model<InterviewerRecord>("Interviewer");
const asAdmin = () => bearer(scenario().admin);
const create = (body: object, as = asAdmin()) =>
  api().post("/api/v1/interviewers/create").set(as).send(body);
const update = (ref: string, body: object) =>
  api().put(`/api/v1/interviewers/${ref}`).set(asAdmin()).send(body);
const SLOTS = TIME_SLOTS;
const rerunMigrations = async () => {
  for (const step of scenario().app.internals.migrations) await step.run();
};

describe("the organisation's three interviewers", () => {
  it("a fresh database offers them by key, Saturday and Sunday at every slot, with no contact data", async () => {
    const { member } = scenario();
    const response = await api().get("/api/v1/interviewers").set(bearer(member));
    expect(response.status).toBe(200);
    const defaults = (response.body.data as Record<string, unknown>[]).slice(0, 3);
    expect(defaults.map((one) => [one.key, one.name, one.title])).toEqual([
      ["ptr-rodel", "Bishop Dr. Rodel Manzo", "Chief Chaplain"],
      ["ptr-maria", "Ptr. Maria Santos", "Formation Interviewer"],
      ["ptr-jose", "Ptr. Jose Dela Cruz", "Ministry Interviewer"],
    ]);
    for (const one of defaults) {
      expect(one).toMatchObject({
        id: expect.any(String),
        days: ["SUNDAY", "SATURDAY"],
        timeSlots: SLOTS,
      });
      expect(Object.keys(one).sort()).toEqual(
        ["active", "days", "id", "key", "name", "nextFree", "timeSlots", "title"].sort(),
      );
      const nextFree = one.nextFree as { date: string; timeSlot: string }[];
      expect(nextFree).toHaveLength(10);
      for (const slot of nextFree) {
        expect([0, 6]).toContain(new Date(`${slot.date}T00:00:00Z`).getUTCDay());
      }
    }
    const stored = await interviewers().find({ key: /^ptr-/ }).lean();
    for (const one of stored) {
      expect(one.email ?? null).toBeNull();
      expect(one).not.toHaveProperty("userId");
    }
  });

  it("are seeded once: a restart adds nothing and brings back none an administrator deleted", async () => {
    await rerunMigrations();
    expect(await interviewers().countDocuments({ key: /^ptr-/ })).toBe(3);
    const gone = await api().delete("/api/v1/interviewers/ptr-jose").set(asAdmin());
    expect(gone.status).toBe(204);
    await rerunMigrations();
    expect(await interviewers().countDocuments({ key: "ptr-jose" })).toBe(0);
    expect((await api().delete("/api/v1/interviewers/ptr-jose").set(asAdmin())).status).toBe(404);
  });
});

describe("administrators keep the records", () => {
  it("create: defaults filled in, the key and address normalised, an account linked; 201 and audited", async () => {
    const { app, officer } = scenario();
    const response = await create({
      key: "Ptr-Ana",
      name: " Rev. Ána Reyes ",
      title: "Formation Interviewer",
      email: " Ana.Reyes@Example.org ",
      userId: officer.id,
    });
    expect(response.status).toBe(201);
    expect(response.body).toMatchObject({ code: "CREATED" });
    expect(response.body.data).toMatchObject({
      id: expect.any(String),
      key: "ptr-ana",
      name: "Rev. Ána Reyes",
      title: "Formation Interviewer",
      email: "ana.reyes@example.org",
      userId: officer.id,
      active: true,
      days: ["SUNDAY", "SATURDAY"],
      timeSlots: SLOTS,
    });
    const entry = await rawDb(app)
      .auditLogs.findOne({ action: "interviewer.create", targetId: response.body.data.id })
      .lean();
    expect(entry).not.toBeNull();
    const listed = await api().get("/api/v1/interviewers").set(bearer(scenario().member));
    const shown = (listed.body.data as { key: string }[]).find((one) => one.key === "ptr-ana");
    expect(shown).toBeDefined();
    expect(JSON.stringify(listed.body)).not.toContain("ana.reyes@example.org");
  });

  it("create refuses a taken key, a malformed one, a member account, an unknown or linked account, non-administrators", async () => {
    const { officer, staff, member } = scenario();
    const base = { name: "Someone", title: "Interviewer" };
    const taken = await create({ ...base, key: "PTR-RODEL" });
    expect(taken.status).toBe(409);
    expect(taken.body.message).toMatch(/ptr-rodel is taken/);
    for (const key of ["ptr rodel", "ptr--rodel", "-ptr", "ptr_rodel", "x".repeat(41)]) {
      const malformed = await create({ ...base, key });
      expect(malformed.status).toBe(400);
      expect(malformed.body).toMatchObject({
        code: "VALIDATION_ERROR",
        message: malformed.body.errors[0].message,
        errors: [{ path: "key", message: expect.stringContaining("lower-case letters") }],
      });
    }
    const uuidKey = await create({ ...base, key: "01900000-0000-7000-8000-000000000000" });
    expect(uuidKey.status).toBe(400);
    const memberAccount = await create({ ...base, key: "as-member", userId: member.id });
    expect(memberAccount.status).toBe(409);
    const noAccount = await create({
      ...base,
      key: "no-account",
      userId: "01900000-0000-7000-8000-000000000000",
    });
    expect(noAccount.status).toBe(400);
    expect(noAccount.body.errors[0].path).toBe("userId");
    const linked = await create({ ...base, key: "linked-twice", userId: officer.id });
    expect(linked.status).toBe(409);
    expect(linked.body.message).toMatch(/already linked/);
    const idle = await create({ ...base, key: "idle", active: true, days: [] });
    expect(idle.status).toBe(400);
    expect(idle.body.errors).toEqual([{ path: "days", message: idle.body.message }]);
    expect((await create({ ...base, key: "by-officer" }, bearer(staff))).status).toBe(403);
    expect((await create({ ...base, key: "by-member" }, bearer(member))).status).toBe(403);
    expect(
      await interviewers().countDocuments({
        key: mongoose.trusted({
          $in: ["as-member", "no-account", "linked-twice", "idle", "by-officer", "by-member"],
        }),
      }),
    ).toBe(0);
  });

  it("update by key or id: fields left out stay, null clears the address and the link; audited by id", async () => {
    const { app, staff } = scenario();
    const rodel = await interviewers().findOne({ key: "ptr-rodel" }).lean();
    const byKey = await update("ptr-rodel", {
      email: "Rodel.Manzo@Example.org",
      userId: staff.id,
      days: ["SATURDAY"],
      timeSlots: ["10:00 AM", "09:00 AM"],
    });
    expect(byKey.status).toBe(200);
    expect(byKey.body.data).toMatchObject({
      id: rodel!._id,
      key: "ptr-rodel",
      name: "Bishop Dr. Rodel Manzo",
      email: "rodel.manzo@example.org",
      userId: staff.id,
      days: ["SATURDAY"],
      timeSlots: ["09:00 AM", "10:00 AM"],
    });
    const byId = await update(rodel!._id, { title: "Chief Chaplain and Bishop" });
    expect(byId.body.data).toMatchObject({ title: "Chief Chaplain and Bishop", userId: staff.id });
    const unlinked = await update("ptr-rodel", { userId: null, email: null });
    expect(unlinked.body.data).toMatchObject({ userId: null, email: null });
    const stored = await interviewers().findById(rodel!._id).lean();
    expect(stored).not.toHaveProperty("userId");
    const entries = await rawDb(app)
      .auditLogs.find({ action: "interviewer.update", targetId: rodel!._id })
      .lean();
    expect(entries).toHaveLength(3);
    expect(
      await rawDb(app).auditLogs.countDocuments({
        action: "interviewer.update",
        targetId: "ptr-rodel",
      }),
    ).toBe(0);

    const cleared = await update("ptr-rodel", { name: null });
    expect(cleared.status).toBe(400);
    expect(cleared.body.message).toBe("name cannot be cleared");
    expect((await update("ptr-nobody", { title: "x" })).status).toBe(404);
    const malformed = await update("Ptr Rodel", { title: "x" });
    expect(malformed.status).toBe(400);
    expect(malformed.body.errors[0].path).toBe("id");
    const renamedOnto = await update("ptr-rodel", { key: "ptr-maria" });
    expect(renamedOnto.status).toBe(409);
    expect((await interviewers().findById(rodel!._id).lean())!.key).toBe("ptr-rodel");
  });

  it("deactivate hides an interviewer from members and from booking; the list for administrators keeps it", async () => {
    const { app, admin } = scenario();
    const made = await create({ key: "ptr-leaving", name: "Ptr. Leaving", title: "Interviewer" });
    const id = made.body.data.id as string;
    const off = await api().patch("/api/v1/interviewers/ptr-leaving/deactivate").set(asAdmin());
    expect(off.status).toBe(200);
    expect(off.body.data).toMatchObject({ id, active: false });
    const listed = await api().get("/api/v1/interviewers").set(bearer(scenario().member));
    expect((listed.body.data as { key: string }[]).map((one) => one.key)).not.toContain(
      "ptr-leaving",
    );
    const member = await approvedMemberOf(app, admin);
    const refused = await api()
      .put("/api/v1/members/current/online-interview")
      .set(bearer(member.user))
      .send({ interviewerId: "ptr-leaving", day: "SATURDAY", timeSlot: "09:00 AM" });
    expect(refused.status).toBe(404);
    const all = await api().get("/api/v1/interviewers/all?limit=100").set(asAdmin());
    expect(all.status).toBe(200);
    expect(all.body.data).toContainEqual(expect.objectContaining({ id, active: false }));
    expect(all.body.pagination.totalCount).toBe(await interviewers().estimatedDocumentCount());
    expect((await api().get("/api/v1/interviewers/all").set(bearer(scenario().staff))).status).toBe(
      403,
    );
    expect(
      (await api().patch("/api/v1/interviewers/ptr-nobody/deactivate").set(asAdmin())).status,
    ).toBe(404);
    const entry = await rawDb(app)
      .auditLogs.findOne({ action: "interviewer.deactivate", targetId: id })
      .lean();
    expect(entry).not.toBeNull();
  });

  it("delete is refused while an interview with it is to come, then erases the record", async () => {
    const { app, admin } = scenario();
    const made = await create({ key: "ptr-busy", name: "Ptr. Busy", title: "Interviewer" });
    const id = made.body.data.id as string;
    const member = await approvedMemberOf(app, admin);
    const listed = await api().get("/api/v1/interviewers").set(bearer(member.user));
    const [slot] = (
      listed.body.data as { key: string; nextFree: { date: string; timeSlot: string }[] }[]
    ).find((one) => one.key === "ptr-busy")!.nextFree;
    const day = new Date(`${slot.date}T00:00:00Z`).getUTCDay() === 0 ? "sunday" : "Saturday";
    const booked = await api()
      .put("/api/v1/members/current/online-interview")
      .set(bearer(member.user))
      .send({ interviewerId: "ptr-busy", day, timeSlot: slot.timeSlot });
    expect(booked.status).toBe(200);
    const refused = await api().delete(`/api/v1/interviewers/${id}`).set(asAdmin());
    expect(refused.status).toBe(409);
    expect(await interviewers().countDocuments({ _id: id })).toBe(1);

    const idle = await create({ key: "ptr-idle", name: "Ptr. Idle", title: "Interviewer" });
    const gone = await api().delete("/api/v1/interviewers/ptr-idle").set(asAdmin());
    expect(gone.status).toBe(204);
    expect(gone.text).toBe("");
    expect(await interviewers().countDocuments({ _id: idle.body.data.id })).toBe(0);
    const entry = await rawDb(app)
      .auditLogs.findOne({ action: "interviewer.delete", targetId: idle.body.data.id })
      .lean();
    expect(entry).not.toBeNull();
  });
});

describe("records written when interviewers were accounts", () => {
  it("get a key from the name, the account's name and address, the link; bookings keep them", async () => {
    const { app, admin } = scenario();
    const former = await buildUser(app, { role: Role.OFFICER, name: "Rev. Ána Reyes" });
    // As the earlier version stored them: `_id` the account's id, no key, name or title.
    await app.connection.collection("interviewers").insertOne({
      _id: former.id as never,
      active: true,
      days: ["SATURDAY"],
      timeSlots: ["11:00 AM"],
      createdAt: new Date(),
      updatedAt: new Date(),
    });
    await rerunMigrations();
    const migrated = await interviewers().findById(former.id).lean();
    // "rev-ana-reyes" is not taken: the officer of this file is linked to ptr-ana.
    expect(migrated).toMatchObject({
      key: "rev-ana-reyes",
      name: "Rev. Ána Reyes",
      title: "Interviewer",
      email: former.email,
      userId: former.id,
      active: true,
      days: ["SATURDAY"],
      timeSlots: ["11:00 AM"],
    });
    await rerunMigrations();
    expect(await interviewers().countDocuments({ userId: former.id })).toBe(1);

    const member = await approvedMemberOf(app, admin);
    const booked = await api()
      .put("/api/v1/members/current/online-interview")
      .set(bearer(member.user))
      .send({ interviewerId: former.id, day: "SATURDAY", timeSlot: "11:00 AM" });
    expect(booked.status).toBe(200);
    expect(booked.body.data).toMatchObject({ interviewerKey: "rev-ana-reyes" });
    const decided = await api()
      .patch(`/api/v1/members/${member.id}/interview`)
      .set(bearer(former))
      .send({ outcome: "PASSED" });
    expect(decided.status).toBe(200);
  });
});

describe("privacy", () => {
  it("an interviewer's records are in their export and erased with their account", async () => {
    const { app } = scenario();
    const person = await buildUser(app, { role: Role.OFFICER, name: "Ptr. Erased" });
    const linked = await create({
      key: "ptr-erased",
      name: "Ptr. Erased",
      title: "Interviewer",
      userId: person.id,
    });
    const byAddress = await create({
      key: "ptr-erased-mail",
      name: "Ptr. Erased",
      title: "Interviewer",
      email: person.email.toUpperCase(),
    });
    const exported = await api().get("/api/v1/users/current/export").set(bearer(person));
    expect(exported.status).toBe(200);
    expect(
      (exported.body.data.interviewerRecords as { id: string }[]).map((one) => one.id).sort(),
    ).toEqual([linked.body.data.id, byAddress.body.data.id].sort());

    expect((await api().delete("/api/v1/users/current").set(bearer(person))).status).toBe(204);
    expect(
      await interviewers().countDocuments({
        _id: mongoose.trusted({ $in: [linked.body.data.id, byAddress.body.data.id] }),
      }),
    ).toBe(0);
  });
});
