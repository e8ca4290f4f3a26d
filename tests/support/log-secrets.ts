import fs from "node:fs";
import path from "node:path";
import { DEMO_PASSWORD } from "../../scripts/demo/demo-data";
import { TEST_PASSWORD } from "./factories";
import { BOOTSTRAP_ADMIN } from "./test-app";

export interface LogFinding {
  file: string;
  line: number;
  what: string;
}

/** Secrets the suite uses literally. */
const LITERALS = [TEST_PASSWORD, BOOTSTRAP_ADMIN.password, DEMO_PASSWORD];

/** Shapes of secrets the suite makes on the fly: tokens, hashes, government numbers, signatures. */
const PATTERNS: [string, RegExp][] = [
  ["a JWT", /eyJ[\w-]{10,}\.[\w-]{10,}\.[\w-]{10,}/],
  ["a refresh token", /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\.[\w-]{43}/],
  ["a bcrypt hash", /\$2[aby]\$\d{2}\$[./\w]{53}/],
  ["an SSS number", /\b\d{2}-\d{7}-\d\b/],
  ["a TIN", /\b\d{3}-\d{3}-\d{3}-\d{3}\b/],
  ["a drawn signature", /data:image\//],
  ["a TOTP secret URI", /otpauth:\/\//],
];

/** Keys whose value is a secret wherever they appear in a log line. */
const SECRET_KEYS =
  /"(password|confirmPassword|currentPassword|newPassword|token|accessToken|refreshToken|mfaToken|resetToken|secret|mfaSecret|signatureData|sssNumber|tinNumber)":"(?!\[redacted\])[^"]+"/;
/** A verification code or a TOTP code under a `code` key (error codes are upper-case words). */
const CODE_VALUE = /"code":"([A-HJ-NP-Z2-9]{8}|\d{6})"/;

export function findSecretsInLine(text: string, extraLiterals: string[] = []): string[] {
  const found: string[] = [];
  for (const literal of [...LITERALS, ...extraLiterals]) {
    if (text.includes(literal)) found.push(`the password ${literal}`);
  }
  for (const [what, pattern] of PATTERNS) if (pattern.test(text)) found.push(what);
  const key = SECRET_KEYS.exec(text);
  if (key) found.push(`a "${key[1]}" value`);
  if (CODE_VALUE.test(text)) found.push("a verification or TOTP code");
  return found;
}

/** Every log file in `dir`, line by line. */
export function findSecretsInLogs(
  dir: string,
  extraLiterals: string[] = [],
): {
  files: number;
  lines: number;
  findings: LogFinding[];
} {
  const findings: LogFinding[] = [];
  let lines = 0;
  const files = fs.existsSync(dir)
    ? fs.readdirSync(dir).filter((name) => name.endsWith(".log"))
    : [];
  for (const name of files) {
    const content = fs.readFileSync(path.join(dir, name), "utf8").split("\n");
    content.forEach((text, index) => {
      if (!text) return;
      lines += 1;
      for (const what of findSecretsInLine(text, extraLiterals))
        findings.push({ file: name, line: index + 1, what });
    });
  }
  return { files: files.length, lines, findings };
}
