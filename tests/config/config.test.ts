import { ConfigError, loadConfig } from "../../src/config";

describe("loadConfig", () => {
  it("applies the documented defaults", () => {
    const config = loadConfig({});
    expect(config).toMatchObject({
      port: 4000,
      nodeEnv: "development",
      accessTokenTtlSeconds: 900,
      bcryptCost: 12,
      dbName: "chaplaincy",
    });
    expect(config.mongodbUri).toBeUndefined();
  });

  it("reports every bad variable at once, by name", () => {
    let error: unknown;
    try {
      loadConfig({
        PORT: "eighty",
        JWT_SECRET: "short",
        LOG_LEVEL: "loud",
        MONGODB_URI: "http://db",
        ADMIN_EMAIL: "a@b.org",
      });
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(ConfigError);
    const problems = (error as ConfigError).problems.join("\n");
    for (const name of ["PORT", "JWT_SECRET", "LOG_LEVEL", "MONGODB_URI", "ADMIN_PASSWORD"])
      expect(problems).toContain(name);
  });

  it("requires JWT_SECRET in production", () => {
    expect(() => loadConfig({ NODE_ENV: "production" })).toThrow(/JWT_SECRET is required/);
  });
});
