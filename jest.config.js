/** @type {import('jest').Config} */
module.exports = {
  testEnvironment: "node",
  roots: ["<rootDir>/tests"],
  testMatch: ["**/*.test.ts"],
  transform: {
    "^.+\\.ts$": ["ts-jest", { tsconfig: "tsconfig.json", diagnostics: false }],
    // otplib's audited crypto and base32 dependencies ship ESM only. Node >= 20.19 loads them
    // with require(); jest on Node 20 cannot, so they are compiled to CommonJS for tests.
    "^.+\\.js$": [
      "ts-jest",
      { tsconfig: { allowJs: true, module: "commonjs", target: "es2022" }, diagnostics: false },
    ],
  },
  transformIgnorePatterns: [
    "/node_modules/(?!(@scure|@noble)/)(?!.*/node_modules/(@scure|@noble)/)",
  ],
  globalSetup: "<rootDir>/tests/support/global-setup.ts",
  globalTeardown: "<rootDir>/tests/support/global-teardown.ts",
  testSequencer: "<rootDir>/tests/support/test-sequencer.js",
  setupFiles: ["reflect-metadata"],
  testTimeout: 30000,
  maxWorkers: 2,
};
