import type { TestUser } from "../support/factories";
import { startScenario } from "../support/scenario";
import type { TestApp } from "../support/test-app";
import { adminCall, approvedMember } from "../support/onboarding";
import { ChaplaincyTrainingDocument, SaveChaplaincyTrainingDocument } from "../graphql/generated";

let app: TestApp;
let admin: TestUser;

beforeAll(async () => {
  ({ app, admin } = await startScenario());
});
afterAll(() => app?.close());

const allAnswers = (count: number) =>
  Object.fromEntries(Array.from({ length: count }, (_, i) => [String(i + 1), `Answer ${i + 1}`]));

describe("the catalogue", () => {
  it("a fresh database has the organisation's 5 + 8 lessons and 10 questions, once", async () => {
    const member = await approvedMember(app, admin);
    const pre = await member.get("/lessons?course=PRE_ORIENTATION");
    expect(pre.status).toBe(200);
    expect(pre.body.data.map((l: { id: number }) => l.id)).toEqual([1, 2, 3, 4, 5]);
    expect(pre.body.data[0]).toEqual({
      id: 1,
      course: "PRE_ORIENTATION",
      title: "Mission and Vision of Pearl of the Orient",
      order: 1,
      contentUrl: null,
    });
    const c101 = await member.get("/lessons?course=CHAPLAINCY_101");
    expect(c101.body.data.map((l: { title: string }) => l.title).at(-1)).toBe(
      "Pearl Chaplaincy Membership",
    );
    expect(c101.body.data).toHaveLength(8);
    expect((await member.get("/lessons")).body.data).toHaveLength(13);
    const questions = await member.get("/essay-questions");
    expect(questions.body.data.map((q: { id: number }) => q.id)).toEqual([
      1, 2, 3, 4, 5, 6, 7, 8, 9, 10,
    ]);
    // Seeding again at the next start adds nothing.
    for (const step of app.internals.migrations) await step.run();
    expect((await member.get("/lessons")).body.data).toHaveLength(13);
  });

  it("administrators keep it; members may only read", async () => {
    const member = await approvedMember(app, admin);
    const refused = await member.put("/lessons/PRE_ORIENTATION/1", { title: "x" });
    expect(refused.status).toBe(403);
    const created = await adminCall(app, admin).post("/lessons", {
      course: "CHAPLAINCY_101",
      title: "Crisis Ministry",
      contentUrl: "https://videos.example.org/crisis",
    });
    expect(created.status).toBe(201);
    expect(created.body.data).toMatchObject({ id: 9, course: "CHAPLAINCY_101", order: 9 });
    const updated = await adminCall(app, admin).put("/lessons/CHAPLAINCY_101/9", {
      title: "Crisis Care",
    });
    expect(updated.body.data.title).toBe("Crisis Care");
    expect((await adminCall(app, admin).delete("/lessons/CHAPLAINCY_101/9")).status).toBe(204);
    expect((await adminCall(app, admin).delete("/lessons/CHAPLAINCY_101/9")).status).toBe(404);
    const bad = await adminCall(app, admin).post("/lessons", {
      course: "CHAPLAINCY_101",
      title: "t",
      contentUrl: "javascript:alert(1)",
    });
    expect(bad.status).toBe(400);
    const question = await adminCall(app, admin).post("/essay-questions", { prompt: "Why serve?" });
    expect(question.body.data).toMatchObject({ id: 11, prompt: "Why serve?" });
    expect((await adminCall(app, admin).delete("/essay-questions/11")).status).toBe(204);
  });
});

describe("PUT /members/current/onboarding-progress/pre-orientation", () => {
  it("keeps the union of completed lessons and sets the completion time when all are done", async () => {
    const member = await approvedMember(app, admin);
    const path = "/members/current/onboarding-progress/pre-orientation";
    const first = await member.put(path, { completedLessonIds: [1, 2] });
    expect(first.status).toBe(200);
    expect(first.body.data.preOrientationCompletedLessonIds).toEqual([1, 2]);
    const early = await member.put(path, { completedLessonIds: [3], isCompleted: true });
    expect(early.status).toBe(409);
    const second = await member.put(path, { completedLessonIds: [3, 4, 5], isCompleted: true });
    expect(second.body.data.preOrientationCompletedLessonIds).toEqual([1, 2, 3, 4, 5]);
    expect(second.body.data.preOrientationCompletedAt).toEqual(expect.any(String));
    expect(second.body.data.steps[1].done).toBe(true);
  });

  it("refuses an unknown lesson id with a 400 naming it, and saves nothing", async () => {
    const member = await approvedMember(app, admin);
    const path = "/members/current/onboarding-progress/pre-orientation";
    const response = await member.put(path, { completedLessonIds: [1, 99] });
    expect(response.status).toBe(400);
    expect(response.body.errors[0].path).toBe("completedLessonIds.1");
    const progress = await member.get("/members/current/onboarding-progress");
    expect(progress.body.data.preOrientationCompletedLessonIds).toEqual([]);
  });
});

describe("/members/current/chaplaincy-training", () => {
  it("is null until saved, then keeps lessons and essays and completes when all are in", async () => {
    const member = await approvedMember(app, admin);
    const path = "/members/current/chaplaincy-training";
    expect((await member.get(path)).body).toMatchObject({ code: "OK", data: null });
    const partial = await member.put(path, {
      completedLessonIds: [1, 2, 3, 4, 5, 6, 7, 8],
      essayAnswers: { "1": "First" },
    });
    expect(partial.status).toBe(200);
    expect(partial.body.data).toEqual({
      completedLessonIds: [1, 2, 3, 4, 5, 6, 7, 8],
      essayAnswers: { "1": "First" },
      completedAt: null,
    });
    const early = await member.put(path, { completedLessonIds: [], isCompleted: true });
    expect(early.status).toBe(409);
    expect(early.body.message).toMatch(/9 essay questions unanswered/);
    const done = await member.put(path, {
      completedLessonIds: [],
      essayAnswers: allAnswers(10),
      isCompleted: true,
    });
    expect(done.body.data.completedAt).toEqual(expect.any(String));
    expect(done.body.data.essayAnswers["1"]).toBe("Answer 1");
    const read = await member.get(path);
    expect(Object.keys(read.body.data.essayAnswers)).toHaveLength(10);
  });

  it("refuses an essay over 5 000 characters or for an unknown question with a 400, saving nothing", async () => {
    const member = await approvedMember(app, admin);
    const path = "/members/current/chaplaincy-training";
    const long = await member.put(path, {
      completedLessonIds: [],
      essayAnswers: { "2": "x".repeat(5001) },
    });
    expect(long.status).toBe(400);
    expect(long.body.errors[0].path).toBe("essayAnswers.2");
    const unknown = await member.put(path, { completedLessonIds: [], essayAnswers: { "77": "?" } });
    expect(unknown.status).toBe(400);
    expect(unknown.body.errors[0].path).toBe("essayAnswers.77");
    expect((await member.get(path)).body.data).toBeNull();
  });
});

describe("a refused completion stores nothing", () => {
  it("Chaplaincy 101 with isCompleted before everything is done: 409, lessons and essays not kept", async () => {
    const member = await approvedMember(app, admin);
    const path = "/members/current/chaplaincy-training";
    const early = await member.put(path, {
      completedLessonIds: [1, 2, 3],
      essayAnswers: { "1": "An answer that must not be kept" },
      isCompleted: true,
    });
    expect(early.status).toBe(409);
    expect(early.body.message).toBe(
      "Finish Chaplaincy 101 first: 5 lessons left, 9 essay questions unanswered",
    );
    expect((await member.get(path)).body.data).toBeNull();

    const partial = await member.put(path, {
      completedLessonIds: [1, 2, 3, 4, 5, 6, 7, 8],
      essayAnswers: allAnswers(9),
    });
    expect(partial.status).toBe(200);
    const blank = await member.put(path, {
      completedLessonIds: [],
      essayAnswers: { "1": "Changed", "10": "   " },
      isCompleted: true,
    });
    expect(blank.status).toBe(409);
    expect(blank.body.message).toBe("Finish Chaplaincy 101 first: 1 essay questions unanswered");
    const kept = (await member.get(path)).body.data;
    expect(kept.essayAnswers["1"]).toBe("Answer 1");
    expect(kept.essayAnswers["10"]).toBeUndefined();

    const viaGraphql = await app.graphql(
      SaveChaplaincyTrainingDocument,
      { completedLessonIds: [], essayAnswers: { "1": "Again" }, isCompleted: true },
      member.user.token,
    );
    expect(viaGraphql.errors![0].extensions).toMatchObject({ code: "CONFLICT", status: 409 });
    expect((await member.get(path)).body.data.essayAnswers["1"]).toBe("Answer 1");

    const done = await app.graphql(
      SaveChaplaincyTrainingDocument,
      { completedLessonIds: [], essayAnswers: { "10": "The last one" }, isCompleted: true },
      member.user.token,
    );
    expect(done.errors).toBeUndefined();
    expect(done.data!.saveChaplaincyTraining.data!.completedAt).toEqual(expect.any(String));
    // Completed once, more answers may still come, and asking again is no refusal.
    const after = await member.put(path, {
      completedLessonIds: [],
      essayAnswers: { "2": "Rewritten" },
      isCompleted: true,
    });
    expect(after.status).toBe(200);
    expect(after.body.data.completedAt).toBe(done.data!.saveChaplaincyTraining.data!.completedAt);
  });

  it("pre-orientation with isCompleted before every lesson: 409, the lessons sent not kept", async () => {
    const member = await approvedMember(app, admin);
    const path = "/members/current/onboarding-progress/pre-orientation";
    const early = await member.put(path, { completedLessonIds: [1, 2, 3], isCompleted: true });
    expect(early.status).toBe(409);
    expect(early.body.message).toBe("Complete every pre-orientation lesson first: 2 left");
    const progress = await member.get("/members/current/onboarding-progress");
    expect(progress.body.data.preOrientationCompletedLessonIds).toEqual([]);
  });
});

describe("a step with nothing saved for it answers data: null", () => {
  it("Chaplaincy 101 stays null while only the pre-orientation was saved (REST and /graphql)", async () => {
    const member = await approvedMember(app, admin);
    const saved = await member.put("/members/current/onboarding-progress/pre-orientation", {
      completedLessonIds: [1],
    });
    expect(saved.status).toBe(200);
    const read = await member.get("/members/current/chaplaincy-training");
    expect(read.status).toBe(200);
    expect(read.body).toMatchObject({ code: "OK", data: null });
    const viaGraphql = await app.graphql(ChaplaincyTrainingDocument, {}, member.user.token);
    expect(viaGraphql.data!.chaplaincyTraining).toEqual({ code: "OK", data: null });
  });
});
