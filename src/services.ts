import type { Connection } from "mongoose";
import type { Config } from "./config";
import { AuthService } from "./modules/auth/auth.service";
import { TokenService } from "./modules/auth/token.service";
import { createBranchServiceModel } from "./modules/branch-services/branch-service.model";
import { BranchServiceService } from "./modules/branch-services/branch-service.service";
import { createUserModel } from "./modules/users/user.model";

/** The composition root: every model and service of one app instance, on one connection. */
export function createServices(connection: Connection, config: Config, jwtSecret: string) {
  const models = {
    users: createUserModel(connection),
    branchServices: createBranchServiceModel(connection),
  };
  const tokens = new TokenService(jwtSecret, config.accessTokenTtlSeconds);
  return {
    connection,
    models,
    tokens,
    auth: new AuthService(tokens, models.users),
    // No member records exist yet; the members module replaces this check.
    branchServices: new BranchServiceService(models.branchServices, () => Promise.resolve(false)),
  };
}

export type Services = ReturnType<typeof createServices>;
