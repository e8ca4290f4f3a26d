import { randomBytes } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { PNG as PngImage } from "pngjs";
import type { TestApp } from "./test-app";
import { bearer, type TestUser } from "./factories";

/** A 1×1 PNG, whole. */
export const PNG = Buffer.from(
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==",
  "base64",
);
export const PDF = Buffer.from("%PDF-1.4\n1 0 obj <<>> endobj\ntrailer <<>>\n%%EOF\n");
/** An 8×8 JPEG, whole (images are decoded and re-encoded on upload). */
export const JPEG = Buffer.from(
  "/9j/2wBDAAYEBQYFBAYGBQYHBwYIChAKCgkJChQODwwQFxQYGBcUFhYaHSUfGhsjHBYWICwgIyYnKSopGR8tMC0oMCUoKSj/" +
    "2wBDAQcHBwoIChMKChMoGhYaKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCj/" +
    "wAARCAAIAAgDASIAAhEBAxEB/8QAFQABAQAAAAAAAAAAAAAAAAAAAAL/xAAUEAEAAAAAAAAAAAAAAAAAAAAA/8QAFAEB" +
    "AAAAAAAAAAAAAAAAAAAABv/EABQRAQAAAAAAAAAAAAAAAAAAAAD/2gAMAwEAAhEDEQA/AIAGjt//2Q==",
  "base64",
);

/** A PNG of random pixels: once stored, its bytes (cleaned, re-encoded) are found nowhere else. */
export function uniquePng(): Buffer {
  const png = new PngImage({ width: 16, height: 16 });
  randomBytes(png.data.length).copy(png.data);
  for (let at = 3; at < png.data.length; at += 4) png.data[at] = 255;
  return PngImage.sync.write(png);
}

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
 * A document and a photo of `user`'s uploaded through `app`, and a marker of each: a random
 * tail of the PDF (stored as sent), and the photo's stored bytes (an image is stored cleaned,
 * so nothing appended to it survives). An erasure test looks for them wherever files are kept.
 */
export async function uploadMarked(
  app: TestApp,
  user: TestUser,
): Promise<{ markers: Buffer[]; ids: string[] }> {
  const marker = randomBytes(32);
  const ids: string[] = [];
  for (const [bytes, purpose] of [
    [Buffer.concat([PDF, marker]), "REQUIREMENT"],
    [uniquePng(), "AVATAR"],
  ] as const) {
    const response = await upload(app, user, bytes, { purpose });
    expect(response.status).toBe(201);
    ids.push(response.body.data.id as string);
  }
  const photo = await app.http().get(`/api/v1/files/${ids[1]}`).set(bearer(user)).buffer(true);
  expect(photo.status).toBe(200);
  return { markers: [marker, Buffer.from(photo.body as Buffer)], ids };
}

/** Whether `bytes` hold any of the markers. */
export const holdsAny = (bytes: Buffer, markers: Buffer[]) =>
  markers.some((marker) => bytes.includes(marker));
