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
    expect(config.appUrl).toBe("http://localhost:3000");
  });

  it("takes APP_URL without its trailing slash and names a bad one", () => {
    expect(loadConfig({ APP_URL: "https://members.example.org/app/" }).appUrl).toBe(
      "https://members.example.org/app",
    );
    for (const bad of ["members.example.org", "ftp://members.example.org"]) {
      expect(() => loadConfig({ APP_URL: bad })).toThrow(/APP_URL must be a http: or https: URL/);
    }
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
