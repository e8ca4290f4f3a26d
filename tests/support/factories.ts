import { randomBytes } from "node:crypto";
import bcrypt from "bcryptjs";
import { Role } from "../../src/modules/users/role";
import type { TestApp } from "./test-app";

export interface TestUser {
  id: string;
  email: string;
  role: Role;
  token: string;
}

/**
 * An account with a signed access token. Registration and login arrive with the accounts
 * issue; until then accounts are stored through the app's own model and the token is
 * signed with the app's configured secret, as a real login would.
 */
export async function buildUser(
  app: TestApp,
  overrides: { role?: Role; name?: string } = {},
): Promise<TestUser> {
  const email = `user-${randomBytes(4).toString("hex")}@example.org`;
  const user = await app.services.models.users.create({
    name: overrides.name ?? "Test User",
    email,
    passwordHash: await bcrypt.hash("Secret#123", 4),
    role: overrides.role ?? Role.MEMBER,
    isEmailVerified: true,
  });
  const token = app.services.tokens.signAccessToken(
    user._id,
    user.role,
    randomBytes(8).toString("hex"),
  );
  return { id: user._id, email, role: user.role, token };
}

export const buildAdmin = (app: TestApp) => buildUser(app, { role: Role.ADMIN });

let counter = 0;
/** A branch of service created through POST /branch-service/create. */
export async function buildBranchService(
  app: TestApp,
  admin: TestUser,
  overrides: Record<string, unknown> = {},
): Promise<{ id: string; title: string; sections: { id: string }[] }> {
  counter += 1;
  const response = await app
    .http()
    .post("/api/v1/branch-service/create")
    .set("authorization", `Bearer ${admin.token}`)
    .send({
      title: `Branch ${counter} ${randomBytes(3).toString("hex")}`,
      description: "Serves the faithful",
      ...overrides,
    });
  if (response.status !== 201)
    throw new Error(`buildBranchService: ${response.status} ${JSON.stringify(response.body)}`);
  return (response.body as { data: { id: string; title: string; sections: { id: string }[] } })
    .data;
}
