import { randomBytes } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { TestApp } from "../support/test-app";
import { bearer, type TestUser } from "../support/factories";

/** A 1×1 PNG, whole. */
export const PNG = Buffer.from(
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==",
  "base64",
);
export const PDF = Buffer.from("%PDF-1.4\n1 0 obj <<>> endobj\ntrailer <<>>\n%%EOF\n");
export const JPEG = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.alloc(64, 1)]);

/** A private storage directory of its own for a test file (its env for startScenario). */
export function storageDir(): { dir: string; env: Record<string, string> } {
  const dir = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "files-test-")), "files");
  return { dir, env: { FILE_STORAGE_URL: `file://${dir}` } };
}

/** The names in the storage directory (drafts included: a refused upload leaves none). */
export const storedNames = (dir: string) => (fs.existsSync(dir) ? fs.readdirSync(dir) : []);

export function upload(
  app: TestApp,
  user: TestUser,
  bytes: Buffer,
  options: { purpose?: string | null; filename?: string; contentType?: string } = {},
) {
  const request = app.http().post("/api/v1/files").set(bearer(user));
  if (options.purpose !== null) request.field("purpose", options.purpose ?? "REQUIREMENT");
  return request.attach("file", bytes, {
    filename: options.filename ?? "document.pdf",
    contentType: options.contentType ?? "application/octet-stream",
  });
}

/**
 * A document and a photo of `user`'s, each carrying the same random marker, uploaded through
 * `app`: an erasure test then looks for the marker's bytes wherever files are kept.
 */
export async function uploadMarked(
  app: TestApp,
  user: TestUser,
): Promise<{ marker: Buffer; ids: string[] }> {
  const marker = randomBytes(32);
  const ids: string[] = [];
  for (const [bytes, purpose] of [
    [Buffer.concat([PDF, marker]), "REQUIREMENT"],
    [Buffer.concat([PNG, marker]), "AVATAR"],
  ] as const) {
    const response = await upload(app, user, bytes, { purpose });
    expect(response.status).toBe(201);
    ids.push(response.body.data.id as string);
  }
  return { marker, ids };
}
