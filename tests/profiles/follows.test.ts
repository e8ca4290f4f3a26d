/*
 * Following a member's public page: any signed-in account may follow an
 * APPROVED, listed member, once (a unique index), never itself; every other key is the public
 * page's 404. The page shows how many follow it.
 */
import {
  FollowMemberDocument,
  FollowStateDocument,
  UnfollowMemberDocument,
} from "../graphql/generated";
import { applyAs, bearer, buildUser, type TestUser } from "../support/factories";
import { rawDb } from "../support/raw-db";
import { useScenario } from "../support/scenario";
import { approvedMember, choose, publicPage } from "../support/profile-fixtures";

const scenario = useScenario({ users: { reader: {}, second: {} } });
const NOT_PUBLIC = { code: "NOT_FOUND", message: "No approved member has this id" };

let member: Awaited<ReturnType<typeof approvedMember>>;

beforeAll(async () => {
  const { app, admin } = scenario();
  member = await approvedMember(app, admin);
  await choose(app, member.user, { listed: true });
});

const follow = (method: "get" | "post" | "delete", key: string, user?: TestUser) => {
  const request = scenario().app.http()[method](`/api/v1/members/public/${key}/follow`);
  return user ? request.set(bearer(user)) : request;
};

describe("/members/public/{idOrUniqueId}/follow", () => {
  it("follows and unfollows, idempotently, by uniqueId or id; the page counts followers", async () => {
    const { app, reader, second } = scenario();
    expect((await follow("get", member.uniqueId, reader)).body.data).toEqual({
      isFollowing: false,
      followerCount: 0,
    });
    const followed = await follow("post", member.uniqueId, reader);
    expect(followed.status).toBe(200);
    expect(followed.body.data).toEqual({ isFollowing: true, followerCount: 1 });
    expect((await follow("post", member.id, reader)).body.data).toEqual({
      isFollowing: true,
      followerCount: 1,
    });
    expect((await follow("post", member.id, second)).body.data.followerCount).toBe(2);
    expect((await publicPage(app, member.uniqueId)).body.data.followerCount).toBe(2);
    const stored = await rawDb(app)
      .connection.collection("member_follows")
      .countDocuments({ memberId: member.id });
    expect(stored).toBe(2);

    const unfollowed = await follow("delete", member.uniqueId, reader);
    expect(unfollowed.status).toBe(200);
    expect(unfollowed.body.data).toEqual({ isFollowing: false, followerCount: 1 });
    expect((await follow("delete", member.uniqueId, reader)).body.data).toEqual({
      isFollowing: false,
      followerCount: 1,
    });
    expect((await follow("get", member.id, second)).body.data.isFollowing).toBe(true);
  });

  it("keeps one follow per account and member by a unique index", async () => {
    const { app } = scenario();
    const indexes = await rawDb(app).connection.collection("member_follows").indexes();
    expect(indexes).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ key: { memberId: 1, followerId: 1 }, unique: true }),
      ]),
    );
  });

  it("refuses following oneself with 400", async () => {
    for (const method of ["post", "delete"] as const) {
      const response = await follow(method, member.uniqueId, member.user);
      expect(response.status).toBe(400);
      expect(response.body.code).toBe("BAD_REQUEST");
    }
    expect((await follow("get", member.uniqueId, member.user)).body.data.isFollowing).toBe(false);
  });

  it("answers the public page's 404 for an unlisted, pending, unknown or malformed member", async () => {
    const { app, admin, reader } = scenario();
    const unlisted = await approvedMember(app, admin);
    const pending = await applyAs(app, await buildUser(app));
    const keys = [unlisted.uniqueId, unlisted.id, pending.id, "POI-2020-99999", "not-an-id"];
    for (const key of keys) {
      for (const method of ["get", "post", "delete"] as const) {
        const response = await follow(method, key, reader);
        expect([key, method, response.status, response.body]).toEqual([
          key,
          method,
          404,
          NOT_PUBLIC,
        ]);
      }
    }
    const stored = await rawDb(app)
      .connection.collection("member_follows")
      .countDocuments({ memberId: unlisted.id });
    expect(stored).toBe(0);
  });

  it("needs a bearer token", async () => {
    for (const method of ["get", "post", "delete"] as const) {
      expect((await follow(method, member.uniqueId)).status).toBe(401);
    }
  });

  it("answers through /graphql", async () => {
    const { app } = scenario();
    const fan = await buildUser(app);
    const state = await app.graphql(FollowStateDocument, { id: member.uniqueId }, fan.token);
    const before = state.data!.followState.data.followerCount;
    const followed = await app.graphql(FollowMemberDocument, { id: member.uniqueId }, fan.token);
    expect(followed.data?.followMember.data).toEqual({
      isFollowing: true,
      followerCount: before + 1,
    });
    const self = await app.graphql(FollowMemberDocument, { id: member.id }, member.user.token);
    expect(self.errors?.[0].extensions.code).toBe("BAD_REQUEST");
    const gone = await app.graphql(UnfollowMemberDocument, { id: member.id }, fan.token);
    expect(gone.data?.unfollowMember.data).toEqual({ isFollowing: false, followerCount: before });
  });
});
