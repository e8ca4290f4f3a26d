import { buildAdmin, type TestUser } from "./factories";
import { startTwoInstances, type TestApp } from "./test-app";

export interface TwoInstances {
  first: TestApp;
  second: TestApp;
  /** An administrator, registered through the first instance. */
  admin: TestUser;
}

/**
 * Two instances of the service on one database and an administrator, started before the
 * file's tests and closed after them; the fields are set once `beforeAll` has run.
 */
export function twoInstancesWithAdmin(): TwoInstances {
  const both = {} as TwoInstances;
  let closeBoth = (): Promise<void> => Promise.resolve();
  beforeAll(async () => {
    const started = await startTwoInstances();
    closeBoth = started.closeBoth;
    both.first = started.first;
    both.second = started.second;
    both.admin = await buildAdmin(started.first);
  });
  afterAll(() => closeBoth());
  return both;
}
