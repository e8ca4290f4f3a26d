import { UUID_V7 } from "../support/expectations";
import jwt from "jsonwebtoken";
import {
  CurrentUserDocument,
  LoginDocument,
  RegisterDocument,
  ResendEmailVerificationDocument,
  VerifyEmailDocument,
} from "../graphql/generated";
import { buildUser, loginBootstrapAdmin, TEST_PASSWORD, uniqueEmail } from "../support/factories";
import { verificationCodeIn } from "../support/mailbox";
import {
  startTestApp,
  TEST_JWT_SECRET,
  type GraphqlResult,
  type TestApp,
} from "../support/test-app";
import { rawDb } from "../support/raw-db";

let app: TestApp;

beforeAll(async () => {
  app = await startTestApp();
});
afterAll(() => app?.close());

const countUsers = () => rawDb(app).users.estimatedDocumentCount();

/** A GraphQL error answer: HTTP 200, no data, one error with the REST code and status. */
function expectGraphqlError(result: GraphqlResult<unknown>, code: string, status: number): void {
  expect(result.status).toBe(200);
  expect(result.data ?? null).toBeNull();
  expect(result.errors).toHaveLength(1);
  expect(result.errors![0].extensions).toMatchObject({ code, status });
  expect(result.errors![0].message).toEqual(expect.any(String));
}

async function registerAndReadCode(): Promise<{ email: string; id: string; code: string }> {
  const email = uniqueEmail("gql");
  const mailsBefore = app.mail.messages.length;
  const result = await app.graphql(RegisterDocument, {
    name: "GraphQL Member",
    email,
    password: TEST_PASSWORD,
  });
  expect(result.errors).toBeUndefined();
  const mail = await app.mail.waitFor(email, { subject: /verification code/i, after: mailsBefore });
  return { email, id: result.data!.register.user!.id, code: verificationCodeIn(mail) };
}

describe("register through /graphql", () => {
  it("creates and signs in a MEMBER with the auth success payload", async () => {
    const email = uniqueEmail("GqlFresh").toUpperCase();
    const mailsBefore = app.mail.messages.length;
    const result = await app.graphql(RegisterDocument, {
      name: "GraphQL Member",
      email: ` ${email} `,
      password: TEST_PASSWORD,
    });
    expect(result.status).toBe(200);
    expect(result.errors).toBeUndefined();
    const payload = result.data!.register;
    expect(payload).toMatchObject({
      code: "OK",
      message: expect.any(String),
      mfaRequired: false,
      mfaToken: null,
      user: { email: email.toLowerCase(), role: "MEMBER", isEmailVerified: false },
    });
    expect(payload.user!.id).toMatch(UUID_V7);
    const claims = jwt.verify(payload.accessToken!, TEST_JWT_SECRET) as Record<string, unknown>;
    expect(claims).toMatchObject({
      sub: payload.user!.id,
      role: "MEMBER",
      jti: expect.any(String),
      sid: expect.any(String),
    });

    const current = await app.graphql(CurrentUserDocument, {}, payload.accessToken!);
    expect(current.errors).toBeUndefined();
    expect(current.data!.currentUser.user.id).toBe(payload.user!.id);

    const mail = await app.mail.waitFor(email, {
      subject: /verification code/i,
      after: mailsBefore,
    });
    expect(verificationCodeIn(mail)).toMatch(/^[A-HJ-NP-Z2-9]{8}$/);
  });

  it.each(["OFFICER", "ADMIN"] as const)(
    "refuses an anonymous caller asking for %s with FORBIDDEN (403), creating nothing",
    async (role) => {
      const before = await countUsers();
      const result = await app.graphql(RegisterDocument, {
        name: "Climber",
        email: uniqueEmail("climber"),
        password: TEST_PASSWORD,
        role,
      });
      expectGraphqlError(result, "FORBIDDEN", 403);
      expect(await countUsers()).toBe(before);
    },
  );

  it("refuses a MEMBER's token asking for ADMIN with FORBIDDEN (403)", async () => {
    const member = await buildUser(app);
    const before = await countUsers();
    const result = await app.graphql(
      RegisterDocument,
      { name: "Climber", email: uniqueEmail("climber"), password: TEST_PASSWORD, role: "ADMIN" },
      member.token,
    );
    expectGraphqlError(result, "FORBIDDEN", 403);
    expect(await countUsers()).toBe(before);
  });

  it("lets an admin create an OFFICER without handing out a token", async () => {
    const admin = await loginBootstrapAdmin(app);
    const email = uniqueEmail("gql-officer");
    const result = await app.graphql(
      RegisterDocument,
      { name: "Officer", email, password: TEST_PASSWORD, role: "OFFICER" },
      admin.token,
    );
    expect(result.errors).toBeUndefined();
    expect(result.data!.register).toMatchObject({
      code: "OK",
      accessToken: null,
      mfaToken: null,
      user: { email, role: "OFFICER", isEmailVerified: false },
    });
    const adminStill = await app.graphql(CurrentUserDocument, {}, admin.token);
    expect(adminStill.data!.currentUser.user.role).toBe("ADMIN");
  });

  it("answers CONFLICT (409) for an email already taken, in any case", async () => {
    const email = uniqueEmail("gql-taken");
    const first = await app.graphql(RegisterDocument, {
      name: "First",
      email,
      password: TEST_PASSWORD,
    });
    expect(first.errors).toBeUndefined();
    const before = await countUsers();
    const second = await app.graphql(RegisterDocument, {
      name: "Second",
      email: `  ${email.toUpperCase()} `,
      password: TEST_PASSWORD,
    });
    expectGraphqlError(second, "CONFLICT", 409);
    expect(await countUsers()).toBe(before);
  });

  it("answers VALIDATION_ERROR (400) on path password for a weak password", async () => {
    const before = await countUsers();
    const result = await app.graphql(RegisterDocument, {
      name: "Weak",
      email: uniqueEmail("weak"),
      password: "password",
    });
    expectGraphqlError(result, "VALIDATION_ERROR", 400);
    expect(result.errors![0].extensions.errors).toEqual([
      { path: "password", message: expect.any(String) },
    ]);
    expect(await countUsers()).toBe(before);
  });
});

describe("login through /graphql", () => {
  it("signs in with the auth success payload and stores the userAgent on the session", async () => {
    const user = await buildUser(app);
    const result = await app.graphql(LoginDocument, {
      email: user.email.toUpperCase(),
      password: TEST_PASSWORD,
      userAgent: "GraphqlAgent/1.0",
    });
    expect(result.errors).toBeUndefined();
    const payload = result.data!.login;
    expect(payload).toMatchObject({
      code: "OK",
      message: expect.any(String),
      mfaRequired: false,
      mfaToken: null,
      user: { id: user.id, email: user.email },
    });
    const { sid } = jwt.decode(payload.accessToken!) as { sid: string };
    const session = await rawDb(app).sessions.findById(sid).lean();
    expect(session).toMatchObject({ userId: user.id, userAgent: "GraphqlAgent/1.0" });
  });

  it("answers INVALID_CREDENTIALS (401) with the same message for an unknown email and a wrong password", async () => {
    const user = await buildUser(app);
    const unknown = await app.graphql(LoginDocument, {
      email: uniqueEmail("nobody"),
      password: TEST_PASSWORD,
    });
    const wrong = await app.graphql(LoginDocument, { email: user.email, password: "Wrong#Pass1" });
    expectGraphqlError(unknown, "INVALID_CREDENTIALS", 401);
    expectGraphqlError(wrong, "INVALID_CREDENTIALS", 401);
    expect(wrong.errors![0].message).toBe(unknown.errors![0].message);
  });
});

describe("verifyEmail through /graphql", () => {
  it("verifies with the mailed code, once", async () => {
    const { id, code } = await registerAndReadCode();
    const result = await app.graphql(VerifyEmailDocument, { code: code.toLowerCase() });
    expect(result.errors).toBeUndefined();
    expect(result.data!.verifyEmail).toMatchObject({
      code: "OK",
      message: expect.any(String),
      user: { id, isEmailVerified: true },
    });
    const again = await app.graphql(VerifyEmailDocument, { code });
    expectGraphqlError(again, "INVALID_TOKEN", 400);
  });

  it("answers INVALID_TOKEN (400) for a made-up code", async () => {
    const result = await app.graphql(VerifyEmailDocument, { code: "ZZZZ2222" });
    expectGraphqlError(result, "INVALID_TOKEN", 400);
  });
});

describe("resendEmailVerification through /graphql", () => {
  it("says the same for every address, mails only the unverified one, and its new code replaces the old", async () => {
    const verified = await buildUser(app);
    const pending = await registerAndReadCode();
    await app.internals.mailer.flush();
    const mailsBefore = app.mail.messages.length;

    const results = await Promise.all(
      [verified.email, uniqueEmail("unknown"), pending.email].map((email) =>
        app.graphql(ResendEmailVerificationDocument, { email }),
      ),
    );
    for (const result of results) {
      expect(result.errors).toBeUndefined();
      expect(result.data!.resendEmailVerification).toEqual({
        code: "OK",
        message: expect.any(String),
      });
      expect(result.data).toEqual(results[0].data);
    }

    const mail = await app.mail.waitFor(pending.email, {
      subject: /verification code/i,
      after: mailsBefore,
    });
    await app.internals.mailer.flush();
    expect(app.mail.messages.slice(mailsBefore).map((message) => message.to)).toEqual([
      [pending.email],
    ]);

    const oldCode = await app.graphql(VerifyEmailDocument, { code: pending.code });
    expectGraphqlError(oldCode, "INVALID_TOKEN", 400);
    const newCode = await app.graphql(VerifyEmailDocument, { code: verificationCodeIn(mail) });
    expect(newCode.errors).toBeUndefined();
    expect(newCode.data!.verifyEmail.user).toMatchObject({
      id: pending.id,
      isEmailVerified: true,
    });
  });
});
