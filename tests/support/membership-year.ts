import { readFileSync } from "node:fs";
import path from "node:path";
import { upload } from "./file-samples";
import { approvedMemberOf, bearer, type TestUser } from "./factories";
import type { TestApp } from "./test-app";

/*
 * A member walked through onboarding to the oath, every step through the public API as the
 * organisation's site makes it, for the credential and membership-year tests.
 */

export const API = "/api/v1";
const PHOTO = readFileSync(path.join(__dirname, "../fixtures/photos/portrait-2x2.jpg"));
const DAY_MS = 24 * 60 * 60 * 1000;

/** The Manila calendar day `days` from now (negative: ago), as the oath's takenAt. */
export function dayFromNow(days: number, now = Date.now()): string {
  return new Date(now + days * DAY_MS).toISOString().slice(0, 10);
}

/** The oath day whose year (12 months) ends `days` from now. */
export function oathDayEndingIn(days: number): string {
  const end = new Date(Date.now() + days * DAY_MS);
  const start = new Date(end.getTime());
  start.setUTCMonth(start.getUTCMonth() - 12);
  return start.toISOString().slice(0, 10);
}

/** The bytes behind a fileUrl the service issued, fetched as a browser would (no bearer). */
export async function download(app: TestApp, fileUrl: string): Promise<Buffer> {
  const url = new URL(fileUrl, "http://service.invalid");
  const response = await app
    .http()
    .get(`${url.pathname}${url.search}`)
    .buffer(true)
    .parse((res, done) => {
      const chunks: Buffer[] = [];
      res.on("data", (chunk: Buffer) => chunks.push(chunk));
      res.on("end", () => done(null, Buffer.concat(chunks)));
    });
  if (response.status !== 200) throw new Error(`download: ${response.status}`);
  return response.body as Buffer;
}

function expectOk(label: string, response: { status: number; body: unknown }, status = 200) {
  if (response.status !== status) {
    throw new Error(`${label}: ${response.status} ${JSON.stringify(response.body)}`);
  }
}

export interface MemberInFormation {
  user: TestUser;
  id: string;
  uniqueId: string;
}

/**
 * An approved member with an APPROVED 2x2 photo, both courses, a verified payment, a PASSED
 * interview with `interviewer` (an administrator linked to ptr-rodel) and the card rendered:
 * everything but the oath.
 */
export async function memberBeforeOath(
  app: TestApp,
  admin: TestUser,
  application: Record<string, unknown> = {},
  /** decideInterview false: stop once the card is printed, the interview still PENDING. */
  options: { decideInterview?: boolean } = {},
): Promise<MemberInFormation> {
  const member = await approvedMemberOf(app, admin, application);
  const as = bearer(member.user);
  const adminAs = bearer(admin);
  const put = (p: string, body: object) => app.http().put(`${API}${p}`).set(as).send(body);

  const photo = await upload(app, member.user, PHOTO, { filename: "photo.jpg" });
  expectOk("upload", photo, 201);
  expectOk(
    "requirements",
    await put("/members/current/requirements", {
      attachments: [
        { type: "PHOTO_2X2", fileId: (photo.body as { data: { id: string } }).data.id },
      ],
    }),
  );
  expectOk(
    "approve photo",
    await app
      .http()
      .patch(`${API}/members/${member.id}/requirements/PHOTO_2X2`)
      .set(adminAs)
      .send({ reviewStatus: "APPROVED" }),
  );
  const lessons = async (course: string) =>
    (
      (await app.http().get(`${API}/lessons?course=${course}`).set(as)).body as {
        data: { id: number }[];
      }
    ).data.map((lesson) => lesson.id);
  expectOk(
    "pre-orientation",
    await put("/members/current/onboarding-progress/pre-orientation", {
      completedLessonIds: await lessons("PRE_ORIENTATION"),
      isCompleted: true,
    }),
  );
  expectOk("payment", await put("/members/current/payment-checkout", { paymentMethod: "CASH" }));
  expectOk(
    "verify payment",
    await app
      .http()
      .patch(`${API}/members/${member.id}/payment`)
      .set(adminAs)
      .send({ status: "VERIFIED" }),
  );

  expectOk(
    "link interviewer",
    await app
      .http()
      .put(`${API}/interviewers/ptr-rodel`)
      .set(adminAs)
      .send({ userId: admin.id, email: admin.email }),
  );
  const interviewers = (await app.http().get(`${API}/interviewers`).set(as)).body as {
    data: { key: string; nextFree: { date: string; timeSlot: string }[] }[];
  };
  const slot = interviewers.data.find((row) => row.key === "ptr-rodel")!.nextFree[0];
  const weekday = new Date(`${slot.date}T00:00:00Z`).toLocaleDateString("en-GB", {
    weekday: "long",
    timeZone: "UTC",
  });
  expectOk(
    "book",
    await put("/members/current/online-interview", {
      interviewerId: "ptr-rodel",
      day: weekday,
      timeSlot: slot.timeSlot,
    }),
  );
  const generated = await put("/members/current/id-generation", {});
  expectOk("id generation", generated);
  const uniqueId = (generated.body as { data: { uniqueId: string } }).data.uniqueId;
  if (options.decideInterview === false) return { user: member.user, id: member.id, uniqueId };

  const questions = (
    (await app.http().get(`${API}/essay-questions`).set(as)).body as {
      data: { id: number }[];
    }
  ).data;
  expectOk(
    "chaplaincy",
    await put("/members/current/chaplaincy-training", {
      completedLessonIds: await lessons("CHAPLAINCY_101"),
      essayAnswers: Object.fromEntries(questions.map((q) => [String(q.id), `Answer ${q.id}.`])),
      isCompleted: true,
    }),
  );
  expectOk(
    "interview passed",
    await app
      .http()
      .patch(`${API}/members/${member.id}/interview`)
      .set(adminAs)
      .send({ outcome: "PASSED", note: "Ready" }),
  );
  return { user: member.user, id: member.id, uniqueId };
}

/** The administrator records the oath on `takenAt` (YYYY-MM-DD). */
export async function takeOath(
  app: TestApp,
  admin: TestUser,
  member: { id: string },
  takenAt: string,
) {
  const sworn = await app
    .http()
    .post(`${API}/members/${member.id}/oath`)
    .set(bearer(admin))
    .send({ takenAt, place: "Quezon City chapel", officiant: "Bishop Reyes" });
  expectOk("oath", sworn);
}

/** A member whose oath was taken on `takenAt`. */
export async function swornMember(
  app: TestApp,
  admin: TestUser,
  takenAt: string,
  application: Record<string, unknown> = {},
): Promise<MemberInFormation> {
  const member = await memberBeforeOath(app, admin, application);
  await takeOath(app, admin, member, takenAt);
  return member;
}
