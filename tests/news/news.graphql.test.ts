import {
  CreateNewsPostDocument,
  DeleteNewsPostDocument,
  NewsPostsDocument,
  PublicNewsDocument,
  PublicNewsPostDocument,
  UpdateNewsPostDocument,
} from "../graphql/generated";
import { approvedMemberOf, type TestUser } from "../support/factories";
import { startScenario } from "../support/scenario";
import type { TestApp } from "../support/test-app";

let app: TestApp;
let admin: TestUser;
let member: TestUser;

beforeAll(async () => {
  ({ app, admin, member } = await startScenario({ users: { member: {} } }));
});
afterAll(() => app?.close());

describe("news through /graphql", () => {
  it("writes, schedules, publishes, lists and deletes with REST's envelopes", async () => {
    const tagged = await approvedMemberOf(app, admin, { firstName: "Jose", lastName: "Rizal" });
    const later = new Date(Date.now() + 3_600_000).toISOString();
    const created = await app.graphql(
      CreateNewsPostDocument,
      {
        title: "Anniversary",
        caption: "<p onmouseover='x()'>Ten years</p>",
        status: "PUBLISHED",
        publishedAt: later,
        taggedMembers: [tagged.id],
      },
      admin.token,
    );
    expect(created.errors).toBeUndefined();
    const post = created.data!.createNewsPost.data;
    expect(post).toMatchObject({
      caption: "<p>Ten years</p>",
      publishedAt: later,
      taggedMembers: [{ id: tagged.id, fullName: "Jose Rizal" }],
    });

    const hidden = await app.graphql(PublicNewsPostDocument, { id: post.id });
    expect(hidden.errors![0].extensions.code).toBe("NOT_FOUND");
    expect((await app.graphql(PublicNewsDocument, {})).data!.publicNews.pagination.totalCount).toBe(
      0,
    );
    const all = await app.graphql(NewsPostsDocument, {}, admin.token);
    expect(all.data!.newsPosts.data.map((p) => p.id)).toEqual([post.id]);

    // A DRAFT has no publishedAt; publishing again without a date goes out now.
    const draft = await app.graphql(
      UpdateNewsPostDocument,
      { id: post.id, status: "DRAFT" },
      admin.token,
    );
    expect(draft.data!.updateNewsPost.data.publishedAt).toBeNull();
    const back = await app.graphql(
      UpdateNewsPostDocument,
      { id: post.id, status: "PUBLISHED" },
      admin.token,
    );
    const republished = new Date(back.data!.updateNewsPost.data.publishedAt!).getTime();
    expect(Math.abs(republished - Date.now())).toBeLessThan(5000);

    const now = await app.graphql(
      CreateNewsPostDocument,
      { title: "Out now", status: "PUBLISHED" },
      admin.token,
    );
    const listed = await app.graphql(PublicNewsDocument, { search: "out now" });
    expect(listed.data!.publicNews.data.map((p) => p.id)).toEqual([
      now.data!.createNewsPost.data.id,
    ]);

    const deleted = await app.graphql(DeleteNewsPostDocument, { id: post.id }, admin.token);
    expect(deleted.data!.deleteNewsPost.code).toBe("OK");
  });

  it("keeps writes and the full list to administrators", async () => {
    const asMember = await app.graphql(CreateNewsPostDocument, { title: "x" }, member.token);
    expect(asMember.errors![0].extensions.code).toBe("FORBIDDEN");
    const anonymous = await app.graphql(NewsPostsDocument, {});
    expect(anonymous.errors![0].extensions.code).toBe("UNAUTHENTICATED");
  });
});
