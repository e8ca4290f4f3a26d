import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { ConfigError, environment, loadConfig } from "../../src/config";

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

  it("takes the directory's headquarters from HQ_* and names a coordinate out of range", () => {
    expect(loadConfig({}).headquarters.latitude).toBeCloseTo(14.676);
    const hq = loadConfig({
      HQ_NAME: "Cebu Office",
      HQ_ADDRESS: "Cebu City",
      HQ_LATITUDE: "10.3157",
      HQ_LONGITUDE: "123.8854",
    }).headquarters;
    expect(hq).toEqual({
      name: "Cebu Office",
      address: "Cebu City",
      latitude: 10.3157,
      longitude: 123.8854,
    });
    expect(() => loadConfig({ HQ_LATITUDE: "91" })).toThrow(/HQ_LATITUDE must be a number/);
    expect(() => loadConfig({ HQ_LONGITUDE: "east" })).toThrow(/HQ_LONGITUDE must be a number/);
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

  it("requires MONGODB_URI in production, by name: the service starts no database", () => {
    const production = {
      NODE_ENV: "production",
      JWT_SECRET: "x".repeat(40),
      DATA_KEY: Buffer.alloc(32, 1).toString("base64"),
      SMTP_URL: "smtp://127.0.0.1:9",
      PUBLIC_URL: "https://api.example.org",
      APP_URL: "https://www.example.org",
      CORS_ORIGINS: "https://www.example.org",
    };
    expect(() => loadConfig(production)).toThrow(
      /MONGODB_URI is required when NODE_ENV=production/,
    );
    const uri = "mongodb://db.example.org/?replicaSet=rs0";
    expect(loadConfig({ ...production, MONGODB_URI: uri }).mongodbUri).toBe(uri);
  });
});

describe("CORS_ORIGINS", () => {
  it("reads origins, comma-separated, and none as the empty list", () => {
    expect(loadConfig({}).corsOrigins).toEqual([]);
    expect(
      loadConfig({ CORS_ORIGINS: " https://www.example.org/ , http://localhost:3000" }).corsOrigins,
    ).toEqual(["https://www.example.org", "http://localhost:3000"]);
    expect(loadConfig({ CORS_ORIGINS: "none" }).corsOrigins).toEqual([]);
  });

  it("names each entry that is not an origin, with what one looks like", () => {
    let problems: string[] = [];
    try {
      loadConfig({ CORS_ORIGINS: "www.example.org,https://a.example.org/site,none,*" });
    } catch (error) {
      problems = (error as ConfigError).problems;
    }
    expect(problems).toEqual(
      ["www.example.org", "https://a.example.org/site", "none", "*"].map((entry) =>
        expect.stringMatching(
          new RegExp(
            `^CORS_ORIGINS must list origins such as https://www\\.example\\.org .*\\(got "${entry.replace(/[.*/]/g, "\\$&")}"\\)$`,
          ),
        ),
      ),
    );
  });
});

describe("PUBLIC_URL", () => {
  it("says the service is served over TLS only when it is an https address", () => {
    expect(loadConfig({}).servedOverTls).toBe(false);
    expect(loadConfig({ PUBLIC_URL: "http://api.example.org" }).servedOverTls).toBe(false);
    const tls = loadConfig({ PUBLIC_URL: "https://api.example.org/" });
    expect([tls.servedOverTls, tls.publicUrl]).toEqual([true, "https://api.example.org"]);
  });

  it("refuses an address that is not http or https, by name", () => {
    expect(() => loadConfig({ PUBLIC_URL: "api.example.org" })).toThrow(/PUBLIC_URL/);
  });
});

describe("the .env file", () => {
  let dir: string;
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "env-file-"));
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  it("is read when present, and a variable of the real environment wins over it", () => {
    const file = path.join(dir, ".env");
    fs.writeFileSync(
      file,
      '# a comment\nPORT=4100\nLOG_LEVEL=debug\nMAIL_FROM="Chaplaincy <a@b.org>"\n',
    );
    const env = environment({ LOG_LEVEL: "warn" }, file);
    expect(env).toMatchObject({
      PORT: "4100",
      LOG_LEVEL: "warn",
      MAIL_FROM: "Chaplaincy <a@b.org>",
    });
    expect(loadConfig(env)).toMatchObject({ port: 4100, logLevel: "warn" });
  });

  it("is optional", () => {
    const real = { PORT: "4200" };
    expect(environment(real, path.join(dir, ".env"))).toBe(real);
  });

  it("is what loadConfig reads by default, from the working directory", () => {
    const cwd = process.cwd();
    fs.writeFileSync(path.join(dir, ".env"), "DB_NAME=from_env_file\n");
    try {
      process.chdir(dir);
      expect(loadConfig().dbName).toBe(process.env.DB_NAME ?? "from_env_file");
    } finally {
      process.chdir(cwd);
    }
  });
});
