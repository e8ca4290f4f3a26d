import type { Role } from "../../src/modules/users/role";
import { buildAdmin, buildUser, type TestUser } from "./factories";
import { startTestApp, type TestApp } from "./test-app";

/** An account a scenario signs up: buildUser's overrides. */
export interface UserSpec {
  role?: Role;
  name?: string;
  verified?: boolean;
}

export interface ScenarioSpec<U extends Record<string, UserSpec>> {
  /** Configuration on top of startTestApp's. */
  env?: Record<string, string>;
  /** The accounts besides the administrator, by the name the test calls them. */
  users?: U;
}

export type Scenario<U extends Record<string, UserSpec>> = {
  app: TestApp;
  /** An administrator registered and signed in the way clients do it. */
  admin: TestUser;
} & { [K in keyof U]: TestUser };

/**
 * The preamble of most test files in one call: the app, a signed-in administrator, and the
 * named accounts, made the way clients make them (see factories.ts). Close with `app.close()`.
 */
export async function startScenario<U extends Record<string, UserSpec> = Record<never, never>>(
  spec: ScenarioSpec<U> = {},
): Promise<Scenario<U>> {
  const app = await startTestApp(spec.env);
  const admin = await buildAdmin(app);
  const users: Record<string, TestUser> = {};
  for (const [name, overrides] of Object.entries(spec.users ?? {})) {
    users[name] = await buildUser(app, overrides);
  }
  return { app, admin, ...users } as Scenario<U>;
}

/**
 * startScenario in the file's beforeAll, closed in its afterAll; call the answer inside a test
 * for the scenario.
 */
export function useScenario<U extends Record<string, UserSpec> = Record<never, never>>(
  spec: ScenarioSpec<U> = {},
): () => Scenario<U> {
  let scenario: Scenario<U> | undefined;
  beforeAll(async () => {
    scenario = await startScenario(spec);
  });
  afterAll(async () => {
    await scenario?.app.close();
  });
  return () => {
    if (!scenario) throw new Error("the scenario starts in beforeAll");
    return scenario;
  };
}
