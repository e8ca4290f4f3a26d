import type { CommandStartedEvent } from "mongodb";
import { approvedMemberOf, bearer, buildBranchService, buildOffice } from "../support/factories";
import { rawDb } from "../support/raw-db";
import { startScenario } from "../support/scenario";
import type { TestApp } from "../support/test-app";

/**
 * The public-read mechanism (`@Rest(…, { publicCache: true })`) as clients and shared caches
 * see it: cacheable for 60 s, a weak ETag naming the answer's version (its sources' change
 * stamps: tests/http/public-revalidation.test.ts), 304 with no body on If-None-Match, its own
 * per-IP bucket. Exercised on the public reads that already exist.
 */

describe("public cached reads", () => {
  let app: TestApp;
  let admin: Awaited<ReturnType<typeof startScenario>>["admin"];
  let branchId: string;

  beforeAll(async () => {
    ({ app, admin } = await startScenario());
    branchId = (await buildBranchService(app, admin, { title: "Hospital Ministry" })).id;
  });
  afterAll(() => app?.close());

  it("answers a public list with Cache-Control public, max-age=60 and a weak ETag", async () => {
    const response = await app.http().get("/api/v1/branch-service");
    expect(response.status).toBe(200);
    expect(response.headers["cache-control"]).toBe("public, max-age=60");
    expect(response.headers.etag).toMatch(/^W\/"[\w-]{32}"$/);
    expect(response.body.data.map((b: { id: string }) => b.id)).toContain(branchId);
  });

  it("answers 304 with no body and the same validators when If-None-Match holds the ETag", async () => {
    const first = await app.http().get(`/api/v1/branch-service/${branchId}`);
    const etag = first.headers.etag;
    const opaque = etag.replace(/^W\//, "");
    for (const header of [etag, opaque, `"other", ${etag}`, "*"]) {
      const again = await app
        .http()
        .get(`/api/v1/branch-service/${branchId}`)
        .set("if-none-match", header);
      expect(again.status).toBe(304);
      expect(again.text).toBe("");
      expect(again.headers.etag).toBe(etag);
      expect(again.headers["cache-control"]).toBe("public, max-age=60");
    }
  });

  it("answers a revalidation before looking at the caller: a 304 reads no account or session", async () => {
    const url = `/api/v1/branch-service/${branchId}`;
    const etag = (await app.http().get(url)).headers.etag;
    const readsOfCallers = async (ifNoneMatch?: string) => {
      const seen: string[] = [];
      const listen = ({ commandName, command }: CommandStartedEvent) => {
        const collection = String(command[commandName]);
        if (collection === "users" || collection === "sessions") seen.push(collection);
      };
      const client = app.connection.getClient();
      client.on("commandStarted", listen);
      try {
        const request = app.http().get(url).set(bearer(admin));
        const response = await (ifNoneMatch ? request.set("if-none-match", ifNoneMatch) : request);
        return { status: response.status, reads: [...new Set(seen)].sort() };
      } finally {
        client.off("commandStarted", listen);
      }
    };
    // A 200 with the same token looks the caller up; the 304 before it does not.
    expect(await readsOfCallers()).toEqual({ status: 200, reads: ["sessions", "users"] });
    expect(await readsOfCallers(etag)).toEqual({ status: 304, reads: [] });
  });

  it("answers 200 with a new ETag once the record changed", async () => {
    const before = await app.http().get(`/api/v1/branch-service/${branchId}`);
    const update = await app
      .http()
      .put(`/api/v1/branch-service/${branchId}`)
      .set(bearer(admin))
      .send({ description: "Care for the sick and their families" });
    expect(update.status).toBe(200);
    const after = await app
      .http()
      .get(`/api/v1/branch-service/${branchId}`)
      .set("if-none-match", before.headers.etag);
    expect(after.status).toBe(200);
    expect(after.body.data.description).toBe("Care for the sick and their families");
    expect(after.headers.etag).not.toBe(before.headers.etag);
  });

  it("keeps no answer in the process: a write outside any request is seen at the next revalidation", async () => {
    const id = (await buildBranchService(app, admin)).id;
    const url = `/api/v1/branch-service/${id}`;
    const first = await app.http().get(url);
    // Written straight through the model, as a script would: no request to this instance. (A
    // write through another instance shows within VERSION_MAX_AGE_MS: public-version-replicas.)
    await rawDb(app).branchServices.updateOne({ _id: id }, { $set: { description: "Changed" } });
    const reread = await app.http().get(url).set("if-none-match", first.headers.etag);
    expect(reread.status).toBe(200);
    expect(reread.body.data.description).toBe("Changed");
  });

  it("leaves errors and non-public reads uncacheable, without an ETag", async () => {
    const missing = await app
      .http()
      .get("/api/v1/branch-service/0190a2b4-0000-7000-8000-000000000000");
    expect(missing.status).toBe(404);
    expect(missing.headers["cache-control"]).toBe("no-store");
    expect(missing.headers.etag).toBeUndefined();
    await buildOffice(app, admin);
    const offices = await app.http().get("/api/v1/offices").set(bearer(admin));
    expect(offices.status).toBe(200);
    expect(offices.headers["cache-control"]).toBe("no-store");
    expect(offices.headers.etag).toBeUndefined();
  });

  it("serves the public member check the same way", async () => {
    const { id } = await approvedMemberOf(app, admin);
    const first = await app.http().get(`/api/v1/members/public/${id}`);
    expect(first.status).toBe(200);
    expect(first.headers["cache-control"]).toBe("public, max-age=60");
    const again = await app
      .http()
      .get(`/api/v1/members/public/${id}`)
      .set("if-none-match", first.headers.etag);
    expect(again.status).toBe(304);
  });

  it("documents the validators and the 304 in OpenAPI on public reads only", async () => {
    const doc = (await app.http().get("/api/v1/openapi.json")).body;
    const list = doc.paths["/branch-service"].get;
    expect(Object.keys(list.responses)).toContain("304");
    expect(Object.keys(list.responses[200].headers)).toEqual(
      expect.arrayContaining(["Cache-Control", "ETag"]),
    );
    expect(list.parameters).toContainEqual(
      expect.objectContaining({ name: "If-None-Match", in: "header" }),
    );
    expect(Object.keys(doc.paths["/offices"].get.responses)).not.toContain("304");
  });
});

describe("the public-read rate limit", () => {
  let app: TestApp;
  let admin: Awaited<ReturnType<typeof startScenario>>["admin"];

  beforeAll(async () => {
    ({ app, admin } = await startScenario({ env: { RATE_LIMIT_PUBLIC_READS_PER_MINUTE: "3" } }));
  });
  afterAll(() => app?.close());

  it("gives each IP its own bucket of public reads, 304s included, then 429 with Retry-After", async () => {
    const first = await app.http().get("/api/v1/branch-service");
    expect(first.status).toBe(200);
    const notModified = await app
      .http()
      .get("/api/v1/branch-service")
      .set("if-none-match", first.headers.etag);
    expect(notModified.status).toBe(304);
    expect((await app.http().get("/api/v1/branch-service?page=2")).status).toBe(200);
    const refused = await app.http().get("/api/v1/branch-service");
    expect(refused.status).toBe(429);
    expect(refused.body.code).toBe("TOO_MANY_REQUESTS");
    expect(Number(refused.headers["retry-after"])).toBeGreaterThan(0);
    expect(refused.headers["cache-control"]).toBe("no-store");
    // Other routes draw from the per-request bucket only.
    expect((await app.http().get("/api/v1/offices").set(bearer(admin))).status).toBe(200);
  });
});
