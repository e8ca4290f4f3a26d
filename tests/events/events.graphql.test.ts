import {
  CreateEventDocument,
  DeleteEventDocument,
  EventDocument,
  EventsDocument,
  PublicEventDocument,
  PublicEventsDocument,
  UpdateEventDocument,
} from "../graphql/generated";
import type { TestUser } from "../support/factories";
import { startScenario } from "../support/scenario";
import type { TestApp } from "../support/test-app";

let app: TestApp;
let admin: TestUser;
let member: TestUser;

beforeAll(async () => {
  ({ app, admin, member } = await startScenario({ users: { member: {} } }));
});
afterAll(() => app?.close());

const MEETING = { meetingId: "987 654", meetingPassword: "s3cret-room" };

describe("events through /graphql", () => {
  it("runs create, the public and member reads, update and delete with REST's envelopes", async () => {
    const created = await app.graphql(
      CreateEventDocument,
      {
        name: "Prayer Vigil",
        category: "PRAYER",
        type: "ONLINE",
        startsAt: "2027-02-01",
        ...MEETING,
      },
      admin.token,
    );
    expect(created.errors).toBeUndefined();
    expect(created.data!.createEvent).toMatchObject({ code: "CREATED", data: MEETING });
    const id = created.data!.createEvent.data.id;

    const listed = await app.graphql(PublicEventsDocument, { search: "vigil", sortBy: "startsAt" });
    expect(listed.data!.publicEvents.data.map((e) => e.id)).toEqual([id]);
    const one = await app.graphql(PublicEventDocument, { id });
    expect(one.data!.publicEvent.data).toMatchObject({ id, startsAt: "2027-02-01T00:00:00.000Z" });

    const full = await app.graphql(EventDocument, { id }, member.token);
    expect(full.data!.event.data).toMatchObject(MEETING);
    const all = await app.graphql(EventsDocument, {}, admin.token);
    expect(all.data!.events.pagination.totalCount).toBe(1);

    const cancelled = await app.graphql(
      UpdateEventDocument,
      { id, status: "CANCELLED" },
      admin.token,
    );
    expect(cancelled.data!.updateEvent.data.status).toBe("CANCELLED");
    const backwards = await app.graphql(
      UpdateEventDocument,
      { id, endsAt: "2027-01-01" },
      admin.token,
    );
    expect(backwards.errors![0].extensions).toMatchObject({
      code: "VALIDATION_ERROR",
      errors: [{ path: "endsAt" }],
    });

    const deleted = await app.graphql(DeleteEventDocument, { id }, admin.token);
    expect(deleted.data!.deleteEvent.code).toBe("OK");
    const gone = await app.graphql(PublicEventDocument, { id });
    expect(gone.errors![0].extensions.code).toBe("NOT_FOUND");
  });

  it("has no meeting fields on the public type, and keeps writes and full reads to their roles", async () => {
    // Asked by hand: the public type must not even have the field.
    const response = await app
      .http()
      .post("/graphql")
      .send({ query: "{ publicEvents { data { id meetingPassword } } }" });
    expect(response.body.errors[0].message).toContain("meetingPassword");
    const noToken = await app.graphql(EventsDocument, {});
    expect(noToken.errors![0].extensions.code).toBe("UNAUTHENTICATED");
    const asMember = await app.graphql(
      CreateEventDocument,
      { name: "X", category: "OTHER", type: "ONSITE", startsAt: "2027-01-01" },
      member.token,
    );
    expect(asMember.errors![0].extensions.code).toBe("FORBIDDEN");
  });
});
