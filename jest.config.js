/** @type {import('jest').Config} */
module.exports = {
  testEnvironment: "node",
  roots: ["<rootDir>/tests"],
  testMatch: ["**/*.test.ts"],
  transform: {
    "^.+\\.ts$": ["ts-jest", { tsconfig: "tsconfig.json", diagnostics: false }],
  },
  globalSetup: "<rootDir>/tests/support/global-setup.ts",
  globalTeardown: "<rootDir>/tests/support/global-teardown.ts",
  setupFiles: ["reflect-metadata"],
  testTimeout: 30000,
  maxWorkers: 2,
};
