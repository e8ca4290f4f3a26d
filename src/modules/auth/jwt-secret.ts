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
  // Written whole under a private name, then linked into place: of several processes starting
  // at once on a fresh data directory, one link wins and every process reads that secret.
  const draft = `${file}.${process.pid}.${randomBytes(4).toString("hex")}`;
  fs.writeFileSync(draft, randomBytes(48).toString("base64url"), { mode: 0o600, flag: "wx" });
  try {
    fs.linkSync(draft, file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
  } finally {
    fs.rmSync(draft, { force: true });
  }
  return fs.readFileSync(file, "utf8").trim();
}
