import jwt from "jsonwebtoken";
import { TokenService, VERIFIED_TOKENS_KEPT } from "../../src/modules/auth/token.service";
import { Role } from "../../src/modules/users/role";
import { bearer, buildUser, type TestUser } from "../support/factories";
import { startTestApp, TEST_JWT_SECRET, type TestApp } from "../support/test-app";

/*
 * Verified access tokens are remembered per process (TokenService), so these tests check
 * that what is remembered never outlives what jwt.verify would accept.
 */

let app: TestApp;
let member: TestUser;

beforeAll(async () => {
  app = await startTestApp();
  member = await buildUser(app);
});
afterAll(() => app?.close());

const current = (token: string) => app.http().get("/api/v1/users/current").set(bearer({ token }));

/** An access token for the member's own live session that expires `seconds` from now. */
function shortLivedToken(seconds: number): string {
  const { sid } = jwt.decode(member.token) as { sid: string };
  return jwt.sign(
    { typ: "access", role: member.role, sid, exp: Math.floor(Date.now() / 1000) + seconds },
    TEST_JWT_SECRET,
    { subject: member.id, jwtid: "short-lived" },
  );
}

describe("access tokens remembered as verified", () => {
  it("refuses a token once it expires, though it was accepted (and remembered) before", async () => {
    const token = shortLivedToken(3);
    const before = await current(token);
    expect(before.status).toBe(200);
    expect(before.body.user.email).toBe(member.email);

    app.internals.clock.advance(4);
    const after = await current(token);
    expect(after.status).toBe(401);
    expect(after.body).toEqual({
      code: "UNAUTHENTICATED",
      message: "The access token has expired",
    });
  });

  it("refuses a remembered token with its signature changed", async () => {
    expect((await current(member.token)).status).toBe(200);
    const [header, payload, signature] = member.token.split(".");
    const flipped = signature[0] === "A" ? `B${signature.slice(1)}` : `A${signature.slice(1)}`;
    const response = await current(`${header}.${payload}.${flipped}`);
    expect(response.status).toBe(401);
    expect(response.body.code).toBe("UNAUTHENTICATED");
  });

  it("refuses a remembered token once its session is signed out", async () => {
    const other = await buildUser(app);
    expect((await current(other.token)).status).toBe(200);
    const logout = await app.http().delete("/api/v1/auth/logout").set(bearer(other));
    expect(logout.status).toBe(200);
    expect((await current(other.token)).status).toBe(401);
  });

  it("keeps at most VERIFIED_TOKENS_KEPT tokens and still verifies the ones it let go", () => {
    const tokens = new TokenService(TEST_JWT_SECRET, 60);
    const signed = Array.from({ length: VERIFIED_TOKENS_KEPT + 5 }, (_, index) =>
      tokens.signAccessToken(`user-${index}`, Role.MEMBER, `session-${index}`),
    );
    for (const token of signed) tokens.verifyAccessToken(token);
    // Peeks at the private map: its bound is the point, and nothing public shows it.
    const kept = (tokens as unknown as { verified: Map<string, unknown> }).verified;
    expect(kept.size).toBe(VERIFIED_TOKENS_KEPT);
    expect(kept.has(signed[0])).toBe(false);
    expect(tokens.verifyAccessToken(signed[0])).toMatchObject({
      sub: "user-0",
      sid: "session-0",
      role: Role.MEMBER,
    });
    expect(kept.size).toBe(VERIFIED_TOKENS_KEPT);
  });
});
