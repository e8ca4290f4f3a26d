/**
 * Issue 53 point 4: the per-account quota holds under concurrency. An account holding 85 files
 * sends 30 uploads at once: each was admitted (85 < 100), and the quota's places decide which
 * are kept. Exactly the 15 places left are taken, the other 15 answer 409, and what they sent
 * is not kept anywhere.
 */
import { randomBytes } from "node:crypto";
import { buildUser } from "../support/factories";
import { rawDb } from "../support/raw-db";
import { useScenario } from "../support/scenario";
import { PDF, storageDir, storedNames, upload } from "../support/file-samples";

const storage = storageDir();
const scenario = useScenario({
  env: { ...storage.env, FILE_MAX_PER_USER: "100", RATE_LIMIT_UPLOADS_PER_HOUR: "1000" },
});

it("keeps at most FILE_MAX_PER_USER files when 30 uploads race at 85", async () => {
  const { app } = scenario();
  const user = await buildUser(app);
  for (let i = 0; i < 85; i += 1) expect((await upload(app, user, PDF)).status).toBe(201);
  const answers = await Promise.all(
    Array.from({ length: 30 }, () => upload(app, user, Buffer.concat([PDF, randomBytes(64)]))),
  );
  const statuses = answers.map((answer) => answer.status).sort();
  expect(statuses.filter((status) => status === 201)).toHaveLength(15);
  expect(statuses.filter((status) => status === 409)).toHaveLength(15);
  for (const refused of answers.filter((answer) => answer.status === 409)) {
    expect(refused.body).toMatchObject({ code: "CONFLICT", message: expect.stringMatching(/100/) });
  }
  const records = await rawDb(app).files.find({ ownerId: user.id }).lean();
  expect(records).toHaveLength(100);
  expect(new Set(records.map((record) => record.quotaKey)).size).toBe(100);
  // A refused upload's bytes are removed with its refusal: one object per record, no more.
  expect(storedNames(storage.dir).sort()).toEqual(
    records.map((record) => record.storageKey).sort(),
  );
  // Full: the next one is refused before a byte is read.
  expect((await upload(app, user, PDF)).status).toBe(409);
}, 120_000);
