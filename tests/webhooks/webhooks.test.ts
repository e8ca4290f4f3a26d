import { WEBHOOK_EVENTS } from "../../src/modules/webhooks/change-feed";
import { SWEEP_JOB } from "../../src/modules/webhooks/webhook-dispatcher";
import { CreateWebhookDocument } from "../graphql/generated";
import { approvedMemberOf, bearer, buildOffice, type TestUser } from "../support/factories";
import { startScenario } from "../support/scenario";
import { nextRunsOf } from "../support/scheduler-runs";
import type { TestApp } from "../support/test-app";
import { eventually } from "../support/until";
import { startReceiver, verified, type ReceivedHook } from "../support/webhook-receiver";

const API = "/api/v1";

let app: TestApp;
let admin: TestUser;
let receiver: Awaited<ReturnType<typeof startReceiver>>;

beforeAll(async () => {
  // The receivers listen on the loopback; retries come after a second here, not thirty.
  ({ app, admin } = await startScenario({
    env: { WEBHOOKS_ALLOW_PRIVATE: "true", WEBHOOK_RETRY_BASE_SECONDS: "1" },
  }));
  receiver = await startReceiver();
}, 90_000);
afterAll(async () => {
  await receiver?.close();
  await app?.close();
}, 90_000);

async function register(url: string, events: readonly string[] = WEBHOOK_EVENTS) {
  const response = await app
    .http()
    .post(`${API}/webhooks`)
    .set(bearer(admin))
    .send({ url, events, description: "The site" });
  expect(response.status).toBe(201);
  return response.body.data as { id: string; secret: string } & Record<string, unknown>;
}

const endpointCount = async () =>
  (await app.http().get(`${API}/webhooks`).set(bearer(admin))).body.pagination.totalCount as number;

const typesOf = (hooks: ReceivedHook[]) => hooks.map((hook) => hook.body.type).sort();

describe("webhooks", () => {
  let secret: string;

  it("registers an endpoint and shows its secret once", async () => {
    const created = await register(receiver.url);
    secret = created.secret;
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/=]{32}$/);
    const one = await app.http().get(`${API}/webhooks/${created.id}`).set(bearer(admin));
    expect(one.status).toBe(200);
    expect(one.body.data).toMatchObject({ url: receiver.url, enabled: true });
    expect(JSON.stringify(one.body)).not.toContain(secret);
    const list = await app.http().get(`${API}/webhooks`).set(bearer(admin));
    expect(JSON.stringify(list.body)).not.toContain(secret);
  });

  it("sends each change once, signed as the library verifies, with public fields only", async () => {
    const before = receiver.received.length;
    const member = await approvedMemberOf(app, admin);
    const church = await app
      .http()
      .put(`${API}/members/current/church-affiliation`)
      .set(bearer(member.user))
      .send({ churchAffiliation: "Cebu Gospel Church" });
    expect(church.status).toBe(200);
    const other = await approvedMemberOf(app, admin);
    expect(
      (await app.http().patch(`${API}/members/${other.id}/archive`).set(bearer(admin))).status,
    ).toBe(200);
    const event = await app.http().post(`${API}/events/create`).set(bearer(admin)).send({
      name: "Annual conference",
      category: "CONFERENCE",
      type: "ONSITE",
      startsAt: "2030-03-12T01:00:00.000Z",
      status: "SCHEDULED",
      visibility: "PUBLIC",
    });
    expect(event.status).toBe(201);
    const eventId = event.body.data.id as string;
    await app
      .http()
      .put(`${API}/events/${eventId}`)
      .set(bearer(admin))
      .send({ location: "Cebu" })
      .expect(200);
    await app.http().delete(`${API}/events/${eventId}`).set(bearer(admin)).expect(204);
    const post = await app
      .http()
      .post(`${API}/news-blogs/create`)
      .set(bearer(admin))
      .send({ title: "Relief", status: "PUBLISHED" });
    expect(post.status).toBe(201);
    const postId = post.body.data.id as string;
    await app
      .http()
      .put(`${API}/news-blogs/${postId}`)
      .set(bearer(admin))
      .send({ title: "Relief work" })
      .expect(200);
    await app.http().delete(`${API}/news-blogs/${postId}`).set(bearer(admin)).expect(204);
    await buildOffice(app, admin);
    await app.http().delete(`${API}/users/${member.user.id}`).set(bearer(admin)).expect(204);

    // Two members were approved: one was changed and erased, the other archived.
    const expected = [...WEBHOOK_EVENTS, "member.approved"].sort();
    const hooks = await eventually(
      () => receiver.received.slice(before),
      (got) => got.length >= expected.length,
    );
    // Another look of the scheduler sends nothing more.
    await nextRunsOf(app, [SWEEP_JOB]);
    const got = receiver.received.slice(before);
    expect(typesOf(got)).toEqual(expected);
    expect(new Set(got.map((hook) => hook.id)).size).toBe(got.length);
    for (const hook of got) {
      expect(verified(secret, hook)).toEqual(hook.body);
      expect(Math.abs(Number(hook.timestamp) * 1000 - Date.now())).toBeLessThan(60_000);
      expect(Object.keys(hook.body).sort()).toEqual(["data", "timestamp", "type"]);
    }
    expect(hooks.length).toBe(expected.length);
    const byType = new Map(got.map((hook) => [hook.body.type, hook.body.data]));
    const approvals = got
      .filter((hook) => hook.body.type === "member.approved")
      .map((hook) => hook.body.data);
    expect(approvals).toHaveLength(2);
    // The member erased later: an approval still pending at the erasure went out as the id alone.
    const erasedApproval = approvals.find((data) => data.id === member.id);
    expect(erasedApproval).toEqual(
      "fullName" in erasedApproval!
        ? { id: member.id, uniqueId: expect.any(String), fullName: member.name }
        : { id: member.id },
    );
    expect(approvals.find((data) => data.id === other.id)).toEqual({
      id: other.id,
      uniqueId: expect.any(String),
      fullName: other.name,
    });
    expect(byType.get("member.erased")).toEqual({ id: member.id });
    expect(byType.get("member.archived")).toEqual({ id: other.id, uniqueId: expect.any(String) });
    expect(byType.get("event.deleted")).toEqual({ id: eventId });
    expect(byType.get("news.changed")).toMatchObject({ id: postId, title: "Relief work" });
    // No contact travels: neither the members' addresses nor their phone numbers.
    const all = got.map((hook) => hook.raw).join("\n");
    expect(all).not.toContain(member.user.email);
    expect(all).not.toContain("@");
  });

  it("keeps only the id of an erased member in the delivery log", async () => {
    const [endpoint] = (await app.http().get(`${API}/webhooks`).set(bearer(admin))).body.data;
    const log = await app
      .http()
      .get(`${API}/webhooks/${endpoint.id}/deliveries`)
      .query({ limit: 100 })
      .set(bearer(admin));
    expect(log.status).toBe(200);
    const erased = log.body.data.find(
      (delivery: { type: string }) => delivery.type === "member.erased",
    );
    const { id } = JSON.parse(erased.body).data as { id: string };
    const about = log.body.data.filter(
      (delivery: { body: string }) => JSON.parse(delivery.body).data.id === id,
    );
    expect(about.length).toBeGreaterThanOrEqual(3);
    for (const delivery of about) expect(JSON.parse(delivery.body).data).toEqual({ id });
    expect(log.body.data.every((d: { status: string }) => d.status === "DELIVERED")).toBe(true);
  });

  it("retries a failing receiver with the same webhook-id until it answers", async () => {
    let failures = 2;
    const flaky = await startReceiver(() => (failures-- > 0 ? 500 : 204));
    try {
      const endpoint = await register(flaky.url, ["news.published"]);
      await app
        .http()
        .post(`${API}/news-blogs/create`)
        .set(bearer(admin))
        .send({ title: "Retry me", status: "PUBLISHED" })
        .expect(201);
      const got = await eventually(
        () => flaky.received,
        (hooks) => hooks.length >= 3,
      );
      expect(got).toHaveLength(3);
      expect(new Set(got.map((hook) => hook.id)).size).toBe(1);
      for (const hook of got) expect(verified(endpoint.secret, hook)).toEqual(hook.body);
      const log = await app
        .http()
        .get(`${API}/webhooks/${endpoint.id}/deliveries`)
        .set(bearer(admin));
      const [delivery] = log.body.data;
      expect(delivery).toMatchObject({ id: got[0].id, status: "DELIVERED", attemptCount: 3 });
      expect(delivery.attempts.map((a: { statusCode: number }) => a.statusCode)).toEqual([
        500, 500, 204,
      ]);
      const endpointNow = await app.http().get(`${API}/webhooks/${endpoint.id}`).set(bearer(admin));
      expect(endpointNow.body.data.failingSince).toBeNull();

      // An administrator sends it again: same id, once more.
      const retried = await app
        .http()
        .post(`${API}/webhooks/${endpoint.id}/deliveries/${delivery.id}/retry`)
        .set(bearer(admin));
      expect(retried.status).toBe(200);
      const again = await eventually(
        () => flaky.received,
        (hooks) => hooks.length >= 4,
      );
      expect(again).toHaveLength(4);
      expect(again[3].id).toBe(delivery.id);
    } finally {
      await flaky.close();
    }
  });

  it("disables an endpoint failing for 5 days and mails the administrator who registered it", async () => {
    const down = await startReceiver(() => 503);
    try {
      const endpoint = await register(down.url, ["news.published"]);
      // Five days of failures cannot be waited for: the first of them is planted.
      await app.connection
        .model("WebhookEndpoint")
        .updateOne(
          { _id: endpoint.id },
          { $set: { failingSince: new Date(Date.now() - 5 * 86_400_000 - 60_000) } },
        );
      const mailsBefore = app.mail.messages.length;
      await app
        .http()
        .post(`${API}/news-blogs/create`)
        .set(bearer(admin))
        .send({ title: "Nobody listens", status: "PUBLISHED" })
        .expect(201);
      const mail = await app.mail.waitFor(admin.email, {
        subject: /webhook endpoint was disabled/i,
        after: mailsBefore,
        // The scheduler looks every 2 s.
        timeoutMs: 20_000,
      });
      expect(mail.text).toContain(down.url);
      const read = await app.http().get(`${API}/webhooks/${endpoint.id}`).set(bearer(admin));
      expect(read.body.data).toMatchObject({ enabled: false, disabledAt: expect.any(String) });
      const log = await app
        .http()
        .get(`${API}/webhooks/${endpoint.id}/deliveries`)
        .set(bearer(admin));
      const retry = await app
        .http()
        .post(`${API}/webhooks/${endpoint.id}/deliveries/${log.body.data[0].id}/retry`)
        .set(bearer(admin));
      expect(retry.status).toBe(409);
      const enabled = await app
        .http()
        .put(`${API}/webhooks/${endpoint.id}`)
        .set(bearer(admin))
        .send({ enabled: true });
      expect(enabled.body.data).toMatchObject({ enabled: true, failingSince: null });
    } finally {
      await down.close();
    }
  });

  it("refuses a plain-http public URL and an unknown event, storing nothing", async () => {
    const before = await endpointCount();
    const cases = [
      { url: "http://example.org/hook", events: ["news.published"] },
      { url: "ftp://example.org/hook", events: ["news.published"] },
      { url: "not a url", events: ["news.published"] },
      { url: receiver.url, events: ["news.exploded"] },
      { url: receiver.url, events: [] },
    ];
    for (const body of cases) {
      const response = await app.http().post(`${API}/webhooks`).set(bearer(admin)).send(body);
      expect(response.status).toBe(400);
      expect(response.body.code).toBe("VALIDATION_ERROR");
    }
    const graphql = await app.graphql(
      CreateWebhookDocument,
      { url: receiver.url, events: ["member.nope"] },
      admin.token,
    );
    expect(graphql.errors?.[0].extensions.code).toBe("VALIDATION_ERROR");
    expect(await endpointCount()).toBe(before);
  });

  it("is for administrators only", async () => {
    const member = await approvedMemberOf(app, admin);
    const response = await app.http().get(`${API}/webhooks`).set(bearer(member.user));
    expect(response.status).toBe(403);
    expect((await app.http().get(`${API}/webhooks`)).status).toBe(401);
  });
});
