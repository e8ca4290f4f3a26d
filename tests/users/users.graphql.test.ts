import { SECRET_MARKERS, UNKNOWN_ID } from "../support/expectations";
import {
  CurrentUserDocument,
  DeleteCurrentUserDocument,
  DeleteUserDocument,
  UpdateCurrentUserDocument,
  UserDocument,
  UsersDocument,
  VerifyEmailDocument,
} from "../graphql/generated";
import {
  TEST_PASSWORD,
  buildUser,
  login,
  loginBootstrapAdmin,
  type TestUser,
} from "../support/factories";
import { verificationCodeIn } from "../support/mailbox";
import { startTestApp, type GraphqlResult, type TestApp } from "../support/test-app";
import { rawDb } from "../support/raw-db";
import { startScenario } from "../support/scenario";

let app: TestApp;
let admin: TestUser;
let member: TestUser;

beforeAll(async () => {
  ({ app, admin, member } = await startScenario({ users: { member: { name: "Grace Member" } } }));
});
afterAll(() => app?.close());

/** The first error's extensions, after checking the HTTP status stays 200 and data is null. */
function errorOf<R>(result: GraphqlResult<R>) {
  expect(result.status).toBe(200);
  expect(result.data ?? null).toBeNull();
  expect(result.errors).toHaveLength(1);
  for (const marker of SECRET_MARKERS) expect(JSON.stringify(result)).not.toContain(marker);
  return result.errors![0].extensions;
}

/** The data of a successful result, after checking it carries no error and no secret. */
function dataOf<R>(result: GraphqlResult<R>): R {
  expect(result.errors).toBeUndefined();
  for (const marker of SECRET_MARKERS) expect(JSON.stringify(result)).not.toContain(marker);
  return result.data!;
}

describe("currentUser", () => {
  it("answers {code, message, user} for the caller", async () => {
    const { currentUser } = dataOf(await app.graphql(CurrentUserDocument, {}, member.token));
    expect(currentUser).toEqual({
      code: "OK",
      message: expect.any(String),
      user: {
        id: member.id,
        name: "Grace Member",
        email: member.email,
        avatar: null,
        role: "MEMBER",
        createdAt: expect.any(String),
        updatedAt: expect.any(String),
        isEmailVerified: true,
        mfaEnabled: false,
      },
    });
    expect(new Date(currentUser.user.createdAt).toISOString()).toBe(currentUser.user.createdAt);
  });

  it("is UNAUTHENTICATED (401) without a token", async () => {
    expect(errorOf(await app.graphql(CurrentUserDocument))).toMatchObject({
      code: "UNAUTHENTICATED",
      status: 401,
    });
  });
});

describe("updateCurrentUser", () => {
  it("changes the name and sets then clears the avatar with null", async () => {
    const user = await buildUser(app);
    const url = "https://cdn.example.org/avatars/g.png";
    const set = dataOf(
      await app.graphql(UpdateCurrentUserDocument, { name: " New Name ", avatar: url }, user.token),
    );
    expect(set.updateCurrentUser).toMatchObject({
      code: "OK",
      user: { id: user.id, name: "New Name", avatar: url },
    });

    const cleared = dataOf(
      await app.graphql(UpdateCurrentUserDocument, { avatar: null }, user.token),
    );
    expect(cleared.updateCurrentUser.user).toMatchObject({ name: "New Name", avatar: null });
    const fetched = dataOf(await app.graphql(CurrentUserDocument, {}, user.token));
    expect(fetched.currentUser.user.avatar).toBeNull();
    expect((await rawDb(app).users.findById(user.id).lean())!.avatar).toBeNull();
  });

  it("makes a changed email unverified and mails a code to the new address", async () => {
    const user = await buildUser(app);
    const newEmail = `gql-moved-${user.id.slice(-8)}@example.org`;
    const mailsBefore = app.mail.messages.length;
    const updated = dataOf(
      await app.graphql(
        UpdateCurrentUserDocument,
        { email: ` ${newEmail.toUpperCase()} ` },
        user.token,
      ),
    );
    expect(updated.updateCurrentUser.user).toMatchObject({
      email: newEmail,
      isEmailVerified: false,
    });
    const mail = await app.mail.waitFor(newEmail, {
      subject: /verification code/i,
      after: mailsBefore,
    });
    const verified = dataOf(
      await app.graphql(VerifyEmailDocument, { code: verificationCodeIn(mail) }),
    );
    expect(verified.verifyEmail.user).toMatchObject({ id: user.id, isEmailVerified: true });
  });

  it("answers CONFLICT (409) for a taken email and VALIDATION_ERROR for a bad avatar", async () => {
    const user = await buildUser(app);
    const before = await rawDb(app).users.findById(user.id).lean();
    expect(
      errorOf(await app.graphql(UpdateCurrentUserDocument, { email: member.email }, user.token)),
    ).toMatchObject({ code: "CONFLICT", status: 409 });
    const invalid = errorOf(
      await app.graphql(UpdateCurrentUserDocument, { avatar: "not a url" }, user.token),
    );
    expect(invalid).toMatchObject({ code: "VALIDATION_ERROR", status: 400 });
    expect(invalid.errors).toEqual([{ path: "avatar", message: expect.any(String) }]);
    expect(await rawDb(app).users.findById(user.id).lean()).toEqual(before);
  });
});

describe("users", () => {
  it("answers the list envelope to an administrator, newest first", async () => {
    const newest = await buildUser(app);
    const total = await rawDb(app).users.estimatedDocumentCount();
    const { users } = dataOf(
      await app.graphql(UsersDocument, { limit: 2, offset: 0 }, admin.token),
    );
    expect(users).toMatchObject({
      code: "OK",
      message: expect.any(String),
      total,
      limit: 2,
      offset: 0,
      totalPages: Math.ceil(total / 2),
      currentPage: 1,
      hasMore: total > 2,
    });
    expect(users.users).toHaveLength(2);
    expect(users.users[0].id).toBe(newest.id);
  });

  it("uses limit 20 and offset 0 by default", async () => {
    const { users } = dataOf(await app.graphql(UsersDocument, {}, admin.token));
    expect(users).toMatchObject({ limit: 20, offset: 0, currentPage: 1 });
  });

  it("is FORBIDDEN (403) for a MEMBER and UNAUTHENTICATED (401) anonymously", async () => {
    expect(errorOf(await app.graphql(UsersDocument, {}, member.token))).toMatchObject({
      code: "FORBIDDEN",
      status: 403,
    });
    expect(errorOf(await app.graphql(UsersDocument, {}))).toMatchObject({
      code: "UNAUTHENTICATED",
      status: 401,
    });
  });

  it.each([
    [{ limit: 0 }, "limit"],
    [{ limit: 101 }, "limit"],
    [{ offset: -1 }, "offset"],
  ])("answers VALIDATION_ERROR (400) for %j", async (variables, path) => {
    const extensions = errorOf(await app.graphql(UsersDocument, variables, admin.token));
    expect(extensions).toMatchObject({ code: "VALIDATION_ERROR", status: 400 });
    expect(extensions.errors).toEqual([{ path, message: expect.any(String) }]);
  });
});

describe("user", () => {
  it("answers {code, message, user} for an administrator", async () => {
    const { user } = dataOf(await app.graphql(UserDocument, { userId: member.id }, admin.token));
    expect(user).toMatchObject({
      code: "OK",
      message: expect.any(String),
      user: { id: member.id, email: member.email, role: "MEMBER" },
    });
  });

  it("answers NOT_FOUND (404) for an unknown id and FORBIDDEN for a MEMBER", async () => {
    expect(
      errorOf(await app.graphql(UserDocument, { userId: UNKNOWN_ID }, admin.token)),
    ).toMatchObject({ code: "NOT_FOUND", status: 404 });
    expect(
      errorOf(await app.graphql(UserDocument, { userId: admin.id }, member.token)),
    ).toMatchObject({ code: "FORBIDDEN", status: 403 });
  });
});

describe("deleteUser", () => {
  it("erases the account and its sessions; its token is refused afterwards", async () => {
    const target = await buildUser(app);
    const { deleteUser } = dataOf(
      await app.graphql(DeleteUserDocument, { userId: target.id }, admin.token),
    );
    expect(deleteUser).toEqual({ code: "OK", message: expect.any(String) });
    expect(await rawDb(app).users.findById(target.id).lean()).toBeNull();
    expect(await rawDb(app).sessions.countDocuments({ userId: target.id })).toBe(0);
    expect(errorOf(await app.graphql(CurrentUserDocument, {}, target.token))).toMatchObject({
      code: "UNAUTHENTICATED",
      status: 401,
    });
    expect(
      errorOf(await app.graphql(DeleteUserDocument, { userId: target.id }, admin.token)),
    ).toMatchObject({ code: "NOT_FOUND", status: 404 });
  });

  it("is FORBIDDEN for a MEMBER, who deletes nothing", async () => {
    const target = await buildUser(app);
    expect(
      errorOf(await app.graphql(DeleteUserDocument, { userId: target.id }, member.token)),
    ).toMatchObject({ code: "FORBIDDEN", status: 403 });
    expect(await rawDb(app).users.findById(target.id).lean()).not.toBeNull();
  });
});

describe("deleteCurrentUser", () => {
  it("erases the caller's account; the account can no longer sign in", async () => {
    const leaving = await buildUser(app);
    const { deleteCurrentUser } = dataOf(
      await app.graphql(DeleteCurrentUserDocument, {}, leaving.token),
    );
    expect(deleteCurrentUser).toEqual({ code: "OK", message: expect.any(String) });
    expect(await rawDb(app).users.findById(leaving.id).lean()).toBeNull();
    expect(await rawDb(app).sessions.countDocuments({ userId: leaving.id })).toBe(0);
    await expect(login(app, leaving.email, TEST_PASSWORD)).rejects.toThrow(/401/);
  });

  it("is a CONFLICT (409) for the last administrator, who remains", async () => {
    const lone = await startTestApp();
    try {
      const root = await loginBootstrapAdmin(lone);
      const me = dataOf(await lone.graphql(CurrentUserDocument, {}, root.token)).currentUser.user;
      expect(errorOf(await lone.graphql(DeleteCurrentUserDocument, {}, root.token))).toMatchObject({
        code: "CONFLICT",
        status: 409,
      });
      expect(
        errorOf(await lone.graphql(DeleteUserDocument, { userId: me.id }, root.token)),
      ).toMatchObject({ code: "CONFLICT", status: 409 });
      expect(await rawDb(lone).users.findById(me.id).lean()).toMatchObject({
        role: "ADMIN",
        deletingSince: null,
      });
      expect(
        dataOf(await lone.graphql(CurrentUserDocument, {}, root.token)).currentUser.user.id,
      ).toBe(me.id);
    } finally {
      await lone.close();
    }
  });
});
