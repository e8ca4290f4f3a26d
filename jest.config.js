const transform = {
  "^.+\\.ts$": ["ts-jest", { tsconfig: "tsconfig.json", diagnostics: false }],
  // otplib's audited crypto and base32 dependencies, and agenda with its MongoDB backend, ship
  // ESM only. Node >= 20.19 loads them with require(); jest on Node 20 cannot, so they are
  // compiled to CommonJS for tests.
  "^.+\\.js$": [
    "ts-jest",
    { tsconfig: { allowJs: true, module: "commonjs", target: "es2022" }, diagnostics: false },
  ],
};

/** What both tiers compile and load alike. */
const shared = {
  testEnvironment: "node",
  transform,
  transformIgnorePatterns: [
    "/node_modules/(?!(@scure|@noble|agenda|@agendajs)/)(?!.*/node_modules/(@scure|@noble|agenda|@agendajs)/)",
  ],
  setupFiles: ["reflect-metadata"],
};

/**
 * Two tiers: unit specs (tests/unit, *.spec.ts) of the pure rules, needing no app and no
 * database, so they run without the engine's global set-up (`npx jest --selectProjects unit`);
 * and the integration tests (*.test.ts) over real HTTP against the real database.
 * `npm test` runs both.
 */
/** @type {import('jest').Config} */
module.exports = {
  projects: [
    {
      ...shared,
      displayName: "unit",
      roots: ["<rootDir>/tests/unit"],
      testMatch: ["**/*.spec.ts"],
    },
    {
      ...shared,
      displayName: "integration",
      roots: ["<rootDir>/tests"],
      testMatch: ["**/*.test.ts"],
      globalSetup: "<rootDir>/tests/support/global-setup.ts",
      globalTeardown: "<rootDir>/tests/support/global-teardown.ts",
    },
  ],
  testSequencer: "<rootDir>/tests/support/test-sequencer.js",
  // Generous for hooks too: CI machines are small and shared, and a suite's start-up (app,
  // scenario, hashed passwords) can wait long for a core; a real fault still fails, just later.
  testTimeout: 90000,
  maxWorkers: 2,
  // Each file's in-process app leaves memory in its worker that later files do not get back; a
  // worker that grew through a whole run spent seconds per garbage collection (pooled database
  // connections timed out meanwhile) and finally crashed. One above this after a file is replaced.
  workerIdleMemoryLimit: "1GB",
};
