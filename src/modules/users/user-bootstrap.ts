import bcrypt from "bcryptjs";
import type { Logger } from "pino";
import type { Config } from "../../config";
import { DUPLICATE } from "../../db/errors";
import { uuidv7 } from "../../db/uuid";
import { Role } from "./role";
import type { UserRepository } from "./user.repository";

/** Creates the first administrator from ADMIN_EMAIL/ADMIN_PASSWORD, once. */
export async function ensureBootstrapAdmin(
  users: UserRepository,
  admin: Config["admin"],
  bcryptCost: number,
  log: Logger,
): Promise<void> {
  if (!admin) return;
  if (await users.findByEmail(admin.email, { _id: 1 })) return;
  const created = await users.create({
    _id: uuidv7(),
    name: admin.name,
    email: admin.email,
    passwordHash: await bcrypt.hash(admin.password, bcryptCost),
    role: Role.ADMIN,
    isEmailVerified: true,
  });
  // Instances starting together on an empty database all see no administrator; the unique
  // email index lets exactly one create it, and the others start normally.
  if (created === DUPLICATE) return;
  log.info({ email: admin.email }, "bootstrap administrator created");
}
