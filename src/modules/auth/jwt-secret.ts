import { randomBytes } from "node:crypto";
import { readOrCreateSecretFile } from "../../db/secret-file";

/**
 * JWT_SECRET when configured; otherwise (embedded default only, config refuses this in
 * production) a random secret generated once and kept beside the data, so tokens survive
 * restarts.
 */
export function resolveJwtSecret(configured: string | undefined, dataDir: string): string {
  if (configured) return configured;
  return readOrCreateSecretFile(dataDir, "jwt-secret", () => randomBytes(48).toString("base64url"));
}
