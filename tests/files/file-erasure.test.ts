/**
 * Issue 39 point 5: the subject-access export lists an account's files, and erasure deletes
 * every one of them from storage: afterwards no byte of them is left under DATA_DIR (the
 * directory driver's default place) and no record names them.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { bearer, buildAdmin, buildUser } from "../support/factories";
import { rawDb } from "../support/raw-db";
import { startTestApp, type TestApp } from "../support/test-app";
import { holdsAny, uploadMarked } from "../support/file-samples";

let dataDir: string;
let app: TestApp;

beforeAll(async () => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "file-erasure-"));
  app = await startTestApp({ DATA_DIR: dataDir });
});
afterAll(async () => {
  await app?.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

/** Every file under `dir`, read as bytes. */
function everyFile(dir: string): Buffer[] {
  return fs
    .readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => fs.readFileSync(path.join(entry.parentPath, entry.name)));
}

it("lists the account's files in its export and leaves no byte of them after erasure", async () => {
  const admin = await buildAdmin(app);
  const person = await buildUser(app);
  const { markers, ids } = await uploadMarked(app, person);
  const stored = everyFile(path.join(dataDir, "files"));
  expect(stored.filter((bytes) => holdsAny(bytes, markers))).toHaveLength(2);

  const exported = await app.http().get("/api/v1/users/current/export").set(bearer(person));
  expect(exported.status).toBe(200);
  const files = exported.body.data.files as { id: string; fileUrl: string; sha256: string }[];
  expect(files.map((file) => file.id).sort()).toEqual([...ids].sort());
  expect(files[0].fileUrl).toContain("signature=");

  const erased = await app.http().delete(`/api/v1/users/${person.id}`).set(bearer(admin));
  expect(erased.status).toBeLessThan(300);
  expect(everyFile(dataDir).filter((bytes) => holdsAny(bytes, markers))).toEqual([]);
  expect(await rawDb(app).files.countDocuments({ ownerId: person.id })).toBe(0);
});
