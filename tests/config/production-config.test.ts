import { ConfigError, loadConfig } from "../../src/config";
import { isCommonPassword } from "../../src/modules/auth/common-passwords";
import { runServiceToExit } from "../support/run-to-exit";

/** Everything production needs, so each test takes one thing away. */
const COMPLETE = {
  NODE_ENV: "production",
  JWT_SECRET: "x".repeat(40),
  DATA_KEY: Buffer.alloc(32, 7).toString("base64"),
  MONGODB_URI: "mongodb://db.example.org:27017/?replicaSet=rs0",
  SMTP_URL: "smtp://mailer:secret@smtp.example.org:587",
  PUBLIC_URL: "https://api.members.example.org",
  APP_URL: "https://members.example.org",
  CORS_ORIGINS: "https://members.example.org",
  ADMIN_EMAIL: "admin@example.org",
  ADMIN_PASSWORD: "Kalinaw#Bantay-2031",
};

function problemsOf(env: Record<string, string | undefined>): string[] {
  try {
    loadConfig(env);
    return [];
  } catch (error) {
    if (error instanceof ConfigError) return error.problems;
    throw error;
  }
}

describe("production configuration", () => {
  it("starts when nothing is missing", () => {
    expect(problemsOf(COMPLETE)).toEqual([]);
  });

  it("names a missing SMTP_URL and says what goes wrong without it", () => {
    const problems = problemsOf({ ...COMPLETE, SMTP_URL: undefined });
    expect(problems).toEqual([expect.stringMatching(/^SMTP_URL is required .*verify an account/)]);
  });

  it("refuses an ADMIN_PASSWORD that breaks the password rule", () => {
    expect(problemsOf({ ...COMPLETE, ADMIN_PASSWORD: "admin" })).toEqual([
      expect.stringMatching(/^ADMIN_PASSWORD is refused in production: .*at least 8 bytes/),
    ]);
    expect(problemsOf({ ...COMPLETE, ADMIN_PASSWORD: "chaplain#2031" })).toEqual([
      expect.stringMatching(/^ADMIN_PASSWORD .*uppercase letter/),
    ]);
  });

  it("refuses a common ADMIN_PASSWORD even dressed up to pass the rule", () => {
    for (const password of ["Password1!", "P@ssw0rd#", "Qwerty123!", "Iloveyou#99"])
      expect(problemsOf({ ...COMPLETE, ADMIN_PASSWORD: password })).toEqual([
        expect.stringMatching(/^ADMIN_PASSWORD .*most common passwords/),
      ]);
  });

  it("wants an https PUBLIC_URL unless ALLOW_INSECURE_HTTP=true", () => {
    for (const publicUrl of [undefined, "http://members.example.org"])
      expect(problemsOf({ ...COMPLETE, PUBLIC_URL: publicUrl })).toEqual([
        expect.stringMatching(/^PUBLIC_URL must be the https:\/\/ .*ALLOW_INSECURE_HTTP=true/),
      ]);
    expect(
      problemsOf({ ...COMPLETE, PUBLIC_URL: "http://lab.local", ALLOW_INSECURE_HTTP: "true" }),
    ).toEqual([]);
    expect(problemsOf({ ...COMPLETE, ALLOW_INSECURE_HTTP: "maybe" })).toEqual([
      expect.stringMatching(/^ALLOW_INSECURE_HTTP must be true or false/),
    ]);
  });

  it("wants an APP_URL the world can reach: given, https, not a local address", () => {
    expect(problemsOf({ ...COMPLETE, APP_URL: undefined })).toEqual([
      expect.stringMatching(/^APP_URL is required when NODE_ENV=production: .*QR code/),
    ]);
    expect(problemsOf({ ...COMPLETE, APP_URL: "http://members.example.org" })).toEqual([
      expect.stringMatching(/^APP_URL must be an https:\/\/ address when NODE_ENV=production/),
    ]);
    for (const local of ["https://localhost:3000", "https://127.0.0.1", "https://app.localhost"])
      expect(problemsOf({ ...COMPLETE, APP_URL: local })).toEqual([
        expect.stringMatching(/^APP_URL must not be a local address when NODE_ENV=production/),
      ]);
    // ALLOW_INSECURE_HTTP is about the API's own address; the printed QR codes still need https.
    expect(
      problemsOf({
        ...COMPLETE,
        APP_URL: "http://members.example.org",
        ALLOW_INSECURE_HTTP: "true",
      }),
    ).toEqual([expect.stringMatching(/^APP_URL must be an https:\/\//)]);
  });

  it("wants CORS_ORIGINS said: the site's origins, or none", () => {
    for (const unset of [undefined, "", "  "])
      expect(problemsOf({ ...COMPLETE, CORS_ORIGINS: unset })).toEqual([
        expect.stringMatching(/^CORS_ORIGINS is required when NODE_ENV=production: .*or none/),
      ]);
    expect(problemsOf({ ...COMPLETE, CORS_ORIGINS: "none" })).toEqual([]);
    expect(loadConfig({ ...COMPLETE, CORS_ORIGINS: "None" }).corsOrigins).toEqual([]);
  });

  it("names a malformed PUBLIC_URL once, not again as missing", () => {
    expect(problemsOf({ ...COMPLETE, PUBLIC_URL: "members.example.org" })).toEqual([
      expect.stringMatching(/^PUBLIC_URL must be a http: or https: URL/),
    ]);
  });

  it("reports every problem at once, one message each", () => {
    const problems = problemsOf({
      ...COMPLETE,
      SMTP_URL: undefined,
      PUBLIC_URL: undefined,
      APP_URL: "http://localhost:3000",
      CORS_ORIGINS: undefined,
      ADMIN_PASSWORD: "admin",
    });
    expect(problems.map((problem) => problem.split(" ")[0])).toEqual([
      "SMTP_URL",
      "ADMIN_PASSWORD",
      "PUBLIC_URL",
      "APP_URL",
      "CORS_ORIGINS",
    ]);
  });

  it("leaves development alone", () => {
    expect(problemsOf({ ADMIN_EMAIL: "a@b.org", ADMIN_PASSWORD: "Password1!" })).toEqual([]);
  });
});

describe("the list of common passwords", () => {
  it("knows the usual ones in their usual disguises, and not a made-up one", () => {
    for (const common of ["admin", "123456", "Password1!", "P@ssw0rd", "Welcome1!", "Summer#2024"])
      expect(isCommonPassword(common)).toBe(true);
    for (const uncommon of ["Kalinaw#Bantay-2031", "Admin#Chaplain1", "Demo#Member1"])
      expect(isCommonPassword(uncommon)).toBe(false);
  });
});

describe("the service started half-configured", () => {
  it("exits 1 before doing anything, with one line per problem and no stack trace", async () => {
    const { code, output } = await runServiceToExit({
      NODE_ENV: "production",
      JWT_SECRET: COMPLETE.JWT_SECRET,
      DATA_KEY: COMPLETE.DATA_KEY,
      MONGODB_URI: "mongodb://127.0.0.1:9/",
      PUBLIC_URL: "http://members.example.org",
      ADMIN_EMAIL: "admin@example.org",
      ADMIN_PASSWORD: "admin",
    });
    expect(code).toBe(1);
    const lines = output.split("\n").filter((line) => line.startsWith("  - "));
    expect(lines.map((line) => line.slice(4).split(" ")[0])).toEqual([
      "SMTP_URL",
      "ADMIN_PASSWORD",
      "PUBLIC_URL",
      "APP_URL",
      "CORS_ORIGINS",
    ]);
    expect(output).not.toMatch(/\bat .*\.ts:\d+/);
  }, 30_000);
});
