/**
 * Issue 39 point 5: files no record names are deleted after FILE_ORPHAN_HOURS, bytes and
 * record, by the background sweep; a named file, or a young unnamed one, stays.
 */
import fs from "node:fs";
import path from "node:path";
import { rawDb } from "../support/raw-db";
import { useScenario } from "../support/scenario";
import { eventually } from "../support/until";
import { PDF, storageDir, upload } from "../support/file-samples";

const storage = storageDir();
const scenario = useScenario({
  env: { ...storage.env, FILE_ORPHAN_HOURS: "24", FILE_ORPHAN_SWEEP_SECONDS: "1" },
  users: { member: {} },
});

it("deletes unnamed files older than FILE_ORPHAN_HOURS and keeps the others", async () => {
  const { app, member } = scenario();
  const ids: string[] = [];
  for (let i = 0; i < 3; i += 1) ids.push((await upload(app, member, PDF)).body.data.id);
  const [orphan, named, young] = ids;
  const files = rawDb(app).files;
  const longAgo = new Date(Date.now() - 25 * 3600 * 1000);
  await files.updateOne({ _id: orphan }, { $set: { unnamedSince: longAgo } });
  await files.updateOne({ _id: named }, { $set: { unnamedSince: null, attachedAt: longAgo } });

  const left = await eventually(
    () => files.countDocuments({ _id: orphan }),
    (count) => count === 0,
    10_000,
  );
  expect(left).toBe(0);
  expect(fs.existsSync(path.join(storage.dir, orphan))).toBe(false);
  for (const kept of [named, young]) {
    expect(await files.countDocuments({ _id: kept })).toBe(1);
    expect(fs.existsSync(path.join(storage.dir, kept))).toBe(true);
  }
});
