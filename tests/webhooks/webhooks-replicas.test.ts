import { DISPATCH_JOB, SWEEP_JOB } from "../../src/modules/webhooks/webhook-dispatcher";
import { bearer, buildAdmin, type TestUser } from "../support/factories";
import { nextLooksOf, nextRunsOf } from "../support/scheduler-runs";
import { startTestApp, type TestApp } from "../support/test-app";
import { startReceiver, verified } from "../support/webhook-receiver";
import { eventually } from "../support/until";

const API = "/api/v1";
const LOOPBACK = { WEBHOOKS_ALLOW_PRIVATE: "true", WEBHOOK_RETRY_BASE_SECONDS: "1" };

let receiver: Awaited<ReturnType<typeof startReceiver>>;
beforeAll(async () => {
  receiver = await startReceiver();
});
afterAll(() => receiver.close());

async function register(app: TestApp, admin: TestUser) {
  const response = await app
    .http()
    .post(`${API}/webhooks`)
    .set(bearer(admin))
    .send({ url: receiver.url, events: ["news.published"] });
  expect(response.status).toBe(201);
  return response.body.data as { id: string; secret: string };
}

async function publish(app: TestApp, admin: TestUser, title: string): Promise<string> {
  const response = await app
    .http()
    .post(`${API}/news-blogs/create`)
    .set(bearer(admin))
    .send({ title, status: "PUBLISHED" });
  expect(response.status).toBe(201);
  return response.body.data.id as string;
}

it("delivers a change whose instance stopped before looking, from the instance started after", async () => {
  // The first instance looks for due work once an hour: after the change it never does.
  const first = await startTestApp({ ...LOOPBACK, JOBS_POLL_SECONDS: "3600" });
  let second: TestApp | undefined;
  try {
    const admin = await buildAdmin(first);
    const endpoint = await register(first, admin);
    const before = receiver.received.length;
    const sweepsBefore = first.internals.jobs.runs(SWEEP_JOB);
    const postId = await publish(first, admin, "Written before the crash");
    expect(receiver.received.length).toBe(before);
    // Another instance of the deployment starts (a restart, another replica).
    second = await startTestApp({ ...LOOPBACK, DB_NAME: first.config.dbName });
    const got = await eventually(
      () => receiver.received.slice(before),
      (hooks) => hooks.length >= 1,
    );
    // Two more looks of the second for queued runs (the sweep's next run is the first's, an hour
    // away): a second send of the change would have been taken by then.
    await nextLooksOf(second, [DISPATCH_JOB]);
    expect(receiver.received.slice(before)).toHaveLength(1);
    // Sent by the instance started after: the first ran nothing that sends since the change.
    expect(first.internals.jobs.runs(DISPATCH_JOB)).toBe(0);
    expect(first.internals.jobs.runs(SWEEP_JOB)).toBe(sweepsBefore);
    expect(got[0].body).toMatchObject({ type: "news.published", data: { id: postId } });
    expect(verified(endpoint.secret, got[0])).toEqual(got[0].body);
  } finally {
    await second?.close();
    await first.close();
  }
});

it("two replicas deliver each change once", async () => {
  const first = await startTestApp(LOOPBACK);
  const second = await startTestApp({ ...LOOPBACK, DB_NAME: first.config.dbName });
  try {
    const admin = await buildAdmin(first);
    const endpoint = await register(first, admin);
    const before = receiver.received.length;
    const ids: string[] = [];
    for (let i = 0; i < 6; i += 1) {
      ids.push(await publish(i % 2 === 0 ? first : second, admin, `Post ${i}`));
    }
    await eventually(
      () => receiver.received.slice(before),
      (hooks) => hooks.length >= ids.length,
    );
    // Two more whole sweeps of the deployment: nothing is sent twice.
    await nextRunsOf([first, second], [SWEEP_JOB]);
    const got = receiver.received.slice(before);
    expect(got.map((hook) => hook.body.data.id).sort()).toEqual([...ids].sort());
    expect(new Set(got.map((hook) => hook.id)).size).toBe(ids.length);
    for (const hook of got) expect(verified(endpoint.secret, hook)).toEqual(hook.body);
  } finally {
    await second.close();
    await first.close();
  }
});
