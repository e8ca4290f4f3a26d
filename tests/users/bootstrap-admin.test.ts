import { UserRepository } from "../../src/modules/users/user.repository";
import bcrypt from "bcryptjs";
import { ensureBootstrapAdmin } from "../../src/modules/users/user-bootstrap";
import { createLogger } from "../../src/logger";
import { startTestApp, type TestApp } from "../support/test-app";
import { rawDb } from "../support/raw-db";

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp({
    ADMIN_EMAIL: " Chief@Example.org ",
    ADMIN_PASSWORD: "Admin#2026!",
    ADMIN_NAME: "Chief Admin",
  });
});
afterAll(() => app?.close());

describe("bootstrap administrator", () => {
  it("is created at start from ADMIN_EMAIL/ADMIN_PASSWORD: ADMIN, verified, password hashed", async () => {
    const admins = await rawDb(app).users.find({ email: "chief@example.org" }).lean();
    expect(admins).toHaveLength(1);
    expect(admins[0]).toMatchObject({ name: "Chief Admin", role: "ADMIN", isEmailVerified: true });
    expect(admins[0].passwordHash).not.toContain("Admin#2026!");
    expect(await bcrypt.compare("Admin#2026!", admins[0].passwordHash)).toBe(true);
  });

  it("is not created twice when the service starts again", async () => {
    await ensureBootstrapAdmin(
      new UserRepository(rawDb(app).users),
      app.config.admin,
      4,
      createLogger(app.config),
    );
    expect(await rawDb(app).users.countDocuments({ email: "chief@example.org" })).toBe(1);
  });

  it("is created exactly once when several instances start together on an empty database", async () => {
    const { users } = rawDb(app);
    const existing = await users.findOne({ email: "chief@example.org" }).lean();
    await users.deleteOne({ _id: existing!._id });
    const log = createLogger(app.config);
    const starts = Array.from({ length: 5 }, () =>
      ensureBootstrapAdmin(new UserRepository(rawDb(app).users), app.config.admin, 4, log),
    );
    await expect(Promise.all(starts)).resolves.toHaveLength(5);
    expect(await users.countDocuments({ email: "chief@example.org" })).toBe(1);
    const login = await app
      .http()
      .post("/api/v1/auth/login")
      .send({ email: "chief@example.org", password: "Admin#2026!" });
    expect(login.status).toBe(200);
  });
});
