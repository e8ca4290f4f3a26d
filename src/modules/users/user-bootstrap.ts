import bcrypt from "bcryptjs";
import type { Logger } from "pino";
import type { Config } from "../../config";
import { Role } from "./role";
import type { UserModel } from "./user.model";

/** Creates the first administrator from ADMIN_EMAIL/ADMIN_PASSWORD, once. */
export async function ensureBootstrapAdmin(
  users: UserModel,
  admin: Config["admin"],
  bcryptCost: number,
  log: Logger,
): Promise<void> {
  if (!admin) return;
  if (await users.exists({ email: admin.email })) return;
  await users.create({
    name: admin.name,
    email: admin.email,
    passwordHash: await bcrypt.hash(admin.password, bcryptCost),
    role: Role.ADMIN,
    isEmailVerified: true,
  });
  log.info({ email: admin.email }, "bootstrap administrator created");
}
