import { randomBytes } from "node:crypto";
import fs from "node:fs";
import path from "node:path";

/**
 * JWT_SECRET when configured; otherwise (embedded default only, config refuses this in
 * production) a random secret generated once and kept beside the data, so tokens survive
 * restarts.
 */
export function resolveJwtSecret(configured: string | undefined, dataDir: string): string {
  if (configured) return configured;
  const file = path.join(dataDir, "jwt-secret");
  if (fs.existsSync(file)) return fs.readFileSync(file, "utf8").trim();
  fs.mkdirSync(dataDir, { recursive: true });
  const secret = randomBytes(48).toString("base64url");
  fs.writeFileSync(file, secret, { mode: 0o600, flag: "wx" });
  return secret;
}
