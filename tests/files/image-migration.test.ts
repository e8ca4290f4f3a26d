/**
 * Issue 53 point 1, for what was stored before: the start-up migration re-encodes images kept
 * with their metadata, moves each record to the clean bytes (its size and sha256 with them)
 * and removes the old bytes; what it cannot decode it leaves, named in the log by id only.
 */
import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { Writable } from "node:stream";
import { Readable } from "node:stream";
import { migrateDatabase } from "../../src/db/migrations";
import { createLogger } from "../../src/logger";
import { uuidv7 } from "../../src/db/uuid";
import { DirectoryStorage } from "../../src/storage/directory-storage";
import { bearer, buildUser } from "../support/factories";
import { gpsTraces, jpegWithGps, pngWithGps } from "../support/gps-photos";
import { rawDb } from "../support/raw-db";
import { useScenario } from "../support/scenario";
import { PDF, storageDir, upload } from "../support/file-samples";

const storage = storageDir();
const scenario = useScenario({ env: storage.env });
const sha256 = (bytes: Buffer) => createHash("sha256").update(bytes).digest("hex");

/** A file record as an earlier version wrote it (no cleanedAt, no quota place), bytes stored as sent. */
async function plantLegacy(ownerId: string, bytes: Buffer, mimeType: string) {
  const { app } = scenario();
  const id = uuidv7();
  await new DirectoryStorage(storage.dir).put(id, Readable.from([bytes]));
  const now = new Date();
  await rawDb(app).files.collection.insertOne({
    _id: id as never,
    ownerId,
    purpose: "REQUIREMENT",
    fileName: "legacy.jpg",
    mimeType,
    size: bytes.length,
    sha256: sha256(bytes),
    storageKey: id,
    attachedAt: now,
    unnamedSince: null,
    createdAt: now,
    updatedAt: now,
  });
  return id;
}

async function migrate(): Promise<string[]> {
  const { app } = scenario();
  const lines: string[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(chunk.toString());
      done();
    },
  });
  await migrateDatabase(
    app.connection,
    app.internals.migrations,
    createLogger({ ...app.config, logLevel: "info" }, sink),
  );
  return lines;
}

it("cleans images stored before, moves their records to the clean bytes, and leaves PDFs", async () => {
  const { app } = scenario();
  const owner = await buildUser(app);
  const jpeg = await jpegWithGps();
  const png = await pngWithGps();
  const jpegId = await plantLegacy(owner.id, jpeg, "image/jpeg");
  const pngId = await plantLegacy(owner.id, png, "image/png");
  const damagedId = await plantLegacy(
    owner.id,
    Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.alloc(64, 1)]),
    "image/jpeg",
  );
  const pdf = await upload(app, owner, PDF);

  const log = (await migrate()).join("");
  expect(log).toContain('"msg":"migrated: image metadata stripped"');
  // The app's own log (test-app.ts keeps it under TEST_LOG_DIR) names what was left.
  const appLog = fs.readFileSync(
    path.join(process.env.TEST_LOG_DIR!, `${app.config.dbName}.log`),
    "utf8",
  );
  const left = appLog.split("\n").find((line) => line.includes("stored image left uncleaned"));
  expect(JSON.parse(left!)).toMatchObject({ fileId: damagedId, level: 40 });

  for (const [id, before] of [
    [jpegId, jpeg],
    [pngId, png],
  ] as const) {
    const record = (await rawDb(app).files.findById(id).lean())!;
    expect(record.storageKey).not.toBe(id);
    expect(record.cleanedAt).toBeInstanceOf(Date);
    // The old bytes are gone; the new ones are clean, and the record tells their size and hash.
    expect(fs.existsSync(path.join(storage.dir, id))).toBe(false);
    const stored = fs.readFileSync(path.join(storage.dir, record.storageKey));
    expect(gpsTraces(stored)).toEqual([]);
    expect([record.size, record.sha256]).toEqual([stored.length, sha256(stored)]);
    expect(stored.equals(before)).toBe(false);
    const read = await app.http().get(`/api/v1/files/${id}`).set(bearer(owner)).buffer(true);
    expect(read.status).toBe(200);
    expect(sha256(Buffer.from(read.body as Buffer))).toBe(record.sha256);
  }
  const damaged = (await rawDb(app).files.findById(damagedId).lean())!;
  expect([damaged.storageKey, damaged.cleanedAt ?? null]).toEqual([damagedId, null]);
  const document = (await rawDb(app).files.findById(pdf.body.data.id).lean())!;
  expect(document.sha256).toBe(sha256(PDF));

  // Once done, a second start finds nothing more to clean.
  const again = (await migrate()).join("");
  expect(again).not.toContain("migrated: image metadata stripped");
});
