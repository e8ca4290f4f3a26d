/**
 * The mock's answers for the newer endpoints keep the contract's invariants, so a client built
 * against `npm run mock` meets what the service answers: events with a place (or a link) and
 * an end after their start, news with real titles and only PUBLISHED posts on public lists, the
 * headquarters in the Philippines, the membership fee in pesos, and all seven onboarding steps.
 */
import pino from "pino";
import supertest from "supertest";
import { DEFAULT_INTERVIEWERS } from "../../src/modules/interviews/interviewer-defaults";
import { STEP_ORDER } from "../../src/modules/onboarding/onboarding-steps";
import { REGIONS } from "../../src/mock/places";
import { startMockServer, type MockServer } from "../../src/mock/mock-server";

let mock: MockServer;
const get = async <T = Record<string, unknown>>(url: string) => {
  const response = await supertest(mock.url).get(url).set({ authorization: "Bearer any" });
  expect([url, response.status]).toEqual([url, 200]);
  return response.body as { data: T };
};

interface Payment {
  paymentMethod: string;
  isPromissoryNote: boolean;
  proofOfPaymentUrl: string | null;
  status: string;
  verifiedAt: string | null;
  fullName?: string;
}

beforeAll(async () => {
  mock = await startMockServer({ port: 0, host: "127.0.0.1", log: pino({ level: "silent" }) });
}, 30_000);
afterAll(() => mock.close());

const PLACES = REGIONS.flatMap((region) =>
  region.provinces.flatMap((province) => [province.name, ...province.towns]),
);
const inThePhilippines = (text: string) => PLACES.some((place) => text.includes(place));

interface MockEvent {
  id: string;
  name: string;
  type: string;
  location: string | null;
  onlineLink: string | null;
  startsAt: string;
  endsAt: string;
  status: string;
  visibility: string;
  meetingId?: string | null;
}

it("answers events with a Philippine place or a meeting link, ending after they start", async () => {
  const open = (await get<MockEvent[]>("/api/v1/events/public?limit=100")).data;
  const all = (await get<MockEvent[]>("/api/v1/events?limit=100")).data;
  expect(open.length).toBeGreaterThan(5);
  for (const event of [...open, ...all]) {
    expect(Date.parse(event.endsAt)).toBeGreaterThan(Date.parse(event.startsAt));
    if (event.type === "ONSITE") {
      expect([event.name, inThePhilippines(event.location ?? "")]).toEqual([event.name, true]);
      expect(event.onlineLink).toBeNull();
    } else {
      expect(event.onlineLink).toMatch(/^https:\/\//);
      expect(event.location).toBeNull();
    }
    expect(event.name).not.toMatch(/^Name$/);
  }
  for (const event of open) {
    expect(event.visibility).toBe("PUBLIC");
    expect(event).not.toHaveProperty("meetingId");
  }
  const one = await get<MockEvent>(`/api/v1/events/public/${open[0].id}`);
  expect(Date.parse(one.data.endsAt)).toBeGreaterThan(Date.parse(one.data.startsAt));
});

interface Post {
  id: string;
  title: string;
  status: string;
  publishedAt: string | null;
  media: { fileUrl: string; kind: string }[];
  taggedMembers: { fullName: string }[];
}

it("lists only PUBLISHED news on the public pages, newest first, with real titles", async () => {
  const open = (await get<Post[]>("/api/v1/news-blogs/public?limit=100")).data;
  expect(open.length).toBeGreaterThan(3);
  for (const post of open) {
    expect(post.status).toBe("PUBLISHED");
    expect(post.publishedAt).toEqual(expect.any(String));
    expect(post.title).not.toBe("Title");
    expect(post.title.split(" ").length).toBeGreaterThan(3);
    expect(post.media[0]).toMatchObject({
      kind: "IMAGE",
      fileUrl: expect.stringMatching(/^https:/),
    });
    for (const member of post.taggedMembers) expect(member.fullName).not.toBe("Full name");
  }
  const times = open.map((post) => post.publishedAt!);
  expect(times).toEqual([...times].sort().reverse());

  const all = (await get<Post[]>("/api/v1/news-blogs?limit=100")).data;
  const drafts = all.filter((post) => post.status === "DRAFT");
  expect(drafts.length).toBeGreaterThan(0);
  for (const draft of drafts) expect(draft.publishedAt).toBeNull();
  // Whatever id is asked for, the public page answers a published post.
  const byId = await get<Post>(`/api/v1/news-blogs/public/${drafts[0].id}`);
  expect(byId.data.status).toBe("PUBLISHED");
});

it("puts the headquarters in the Philippines", async () => {
  const { headquarters } = (
    await get<{ headquarters: { address: string; latitude: number; longitude: number } }>(
      "/api/v1/members/public/directory-locations",
    )
  ).data;
  expect(headquarters.address).toMatch(/Philippines$/);
  expect(headquarters.latitude).toBeGreaterThan(4.5);
  expect(headquarters.latitude).toBeLessThan(21.5);
  expect(headquarters.longitude).toBeGreaterThan(116);
  expect(headquarters.longitude).toBeLessThan(127);
});

it("charges the membership fee in pesos, verified ones with their date", async () => {
  const own = (await get<Payment>("/api/v1/members/current/payment-checkout")).data;
  const listed = (await get<Payment[]>("/api/v1/payments?status=SUBMITTED&limit=100")).data;
  for (const payment of [own, ...listed]) {
    expect(payment).toMatchObject({ amount: 500, currency: "PHP" });
    expect(payment.verifiedAt === null).toBe(payment.status !== "VERIFIED");
    if (payment.paymentMethod !== "CASH" && !payment.isPromissoryNote)
      expect(payment.proofOfPaymentUrl).toMatch(/^https:/);
  }
  for (const payment of listed) expect(payment.fullName).not.toBe("Full name");
});

it("reports all seven onboarding steps in order, those before the current one done", async () => {
  const progress = (
    await get<{ currentStep: string; steps: { step: string; done: boolean; missing: string[] }[] }>(
      "/api/v1/members/current/onboarding-progress",
    )
  ).data;
  expect(progress.steps.map((state) => state.step)).toEqual([...STEP_ORDER]);
  const current = STEP_ORDER.indexOf(progress.currentStep as (typeof STEP_ORDER)[number]);
  progress.steps.forEach((state, index) => {
    expect([state.step, state.done]).toEqual([state.step, index < current]);
    expect(state.missing.length === 0).toBe(state.done);
  });
});

it("offers the organisation's interviewers, their days and slots", async () => {
  const interviewers = (
    await get<
      {
        key: string;
        active: boolean;
        days: string[];
        timeSlots: string[];
        nextFree: { date: string; timeSlot: string }[];
      }[]
    >("/api/v1/interviewers")
  ).data;
  const keys = DEFAULT_INTERVIEWERS.map((interviewer) => interviewer.key as string);
  for (const interviewer of interviewers) {
    expect(keys).toContain(interviewer.key);
    expect(interviewer).toMatchObject({ active: true, days: ["SATURDAY", "SUNDAY"] });
    for (const slot of interviewer.nextFree) {
      expect(slot.date).toMatch(/^\d{4}-\d{2}-\d{2}$/);
      expect(interviewer.timeSlots).toContain(slot.timeSlot);
    }
  }
  const lessons = (await get<{ course: string }[]>("/api/v1/lessons?course=CHAPLAINCY_101")).data;
  for (const lesson of lessons) expect(lesson.course).toBe("CHAPLAINCY_101");
});
