import { randomBytes } from "node:crypto";
import fs from "node:fs";
import path from "node:path";

/**
 * The secret kept in `dataDir/name`, made by `generate` the first time. Written whole under a
 * private name, then linked into place: of several processes starting at once on a fresh data
 * directory, one link wins and every process reads that secret.
 */
export function readOrCreateSecretFile(
  dataDir: string,
  name: string,
  generate: () => string,
): string {
  const file = path.join(dataDir, name);
  if (fs.existsSync(file)) return fs.readFileSync(file, "utf8").trim();
  ensurePrivateDir(dataDir);
  const draft = `${file}.${process.pid}.${randomBytes(4).toString("hex")}`;
  fs.writeFileSync(draft, generate(), { mode: 0o600, flag: "wx" });
  try {
    fs.linkSync(draft, file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
  } finally {
    fs.rmSync(draft, { force: true });
  }
  return fs.readFileSync(file, "utf8").trim();
}

/**
 * `dir` (and any missing parent) readable by this user only. An existing one is narrowed too:
 * a data directory made by an earlier version was world-readable, and a private directory
 * keeps whatever files it holds private, whatever their own modes.
 */
export function ensurePrivateDir(dir: string): string {
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  fs.chmodSync(dir, 0o700);
  return dir;
}
