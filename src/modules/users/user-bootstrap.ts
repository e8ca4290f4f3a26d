import bcrypt from "bcryptjs";
import type { Logger } from "pino";
import type { Config } from "../../config";
import { isDuplicateKeyError } from "../../db/errors";
import { Role } from "./role";
import { uuidv7 } from "../../db/uuid";
import type { UserEmailKeys } from "./user-email-keys";
import type { UserModel } from "./user.model";

/** Creates the first administrator from ADMIN_EMAIL/ADMIN_PASSWORD, once. */
export async function ensureBootstrapAdmin(
  users: UserModel,
  emailKeys: UserEmailKeys,
  admin: Config["admin"],
  bcryptCost: number,
  log: Logger,
): Promise<void> {
  if (!admin) return;
  if (await emailKeys.findUser(admin.email, { _id: 1 })) return;
  const id = uuidv7();
  if (!(await emailKeys.claim(admin.email, id))) return;
  try {
    await users.create({
      _id: id,
      name: admin.name,
      email: admin.email,
      passwordHash: await bcrypt.hash(admin.password, bcryptCost),
      role: Role.ADMIN,
      isEmailVerified: true,
    });
  } catch (error) {
    await emailKeys.release(admin.email, id);
    // Instances starting together on an empty database all see no administrator; the unique
    // email index lets exactly one create it, and the others start normally.
    if (isDuplicateKeyError(error)) return;
    throw error;
  }
  log.info({ email: admin.email }, "bootstrap administrator created");
}
