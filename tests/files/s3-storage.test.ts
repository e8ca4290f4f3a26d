import { Readable } from "node:stream";
import { bearer, buildAdmin, buildUser } from "../support/factories";
import { startTestApp } from "../support/test-app";
import { holdsAny, uploadMarked } from "../support/file-samples";
import { S3Storage } from "../../src/storage/s3-storage";
import { startObjectStore, type RunningObjectStore } from "../support/object-store";
import { describeStorageContract } from "../support/storage-contract";

let server: RunningObjectStore;
let storage: S3Storage;

beforeAll(async () => {
  server = await startObjectStore();
  storage = server.driverOf("contract-tests");
}, 90_000);
afterAll(async () => {
  await storage?.close();
  await server?.stop();
});

describeStorageContract("S3 (SeaweedFS)", () => storage);

it("refuses requests signed with other credentials", async () => {
  await storage.put("bucket-exists", Readable.from([Buffer.from("x")]));
  const stranger = server.driverOf("contract-tests", {
    accessKeyId: "someone-else",
    secretAccessKey: "not-the-secret-key-0123456789",
  });
  const keys = async () => {
    for await (const key of stranger.keys()) return key;
  };
  await expect(keys()).rejects.toMatchObject({ $metadata: { httpStatusCode: 403 } });
  await stranger.close();
});

it("serves uploads from the bucket and leaves no byte of an erased person in it", async () => {
  const app = await startTestApp(server.envFor("erasure-check"));
  const bucket = server.driverOf("erasure-check");
  try {
    const admin = await buildAdmin(app);
    const person = await buildUser(app);
    const { markers, ids } = await uploadMarked(app, person);
    expect((await objectsIn(bucket)).filter((bytes) => holdsAny(bytes, markers))).toHaveLength(2);
    const read = await app.http().get(`/api/v1/files/${ids[0]}`).set(bearer(person)).buffer(true);
    expect(Buffer.from(read.body as Buffer).includes(markers[0])).toBe(true);

    expect(
      (await app.http().delete(`/api/v1/users/${person.id}`).set(bearer(admin))).status,
    ).toBeLessThan(300);
    expect((await objectsIn(bucket)).filter((bytes) => holdsAny(bytes, markers))).toEqual([]);
  } finally {
    await bucket.close();
    await app.close();
  }
});

/** Every object of the bucket, read whole. */
async function objectsIn(bucket: S3Storage): Promise<Buffer[]> {
  const objects: Buffer[] = [];
  for await (const key of bucket.keys()) {
    const chunks: Buffer[] = [];
    for await (const chunk of await bucket.get(key)) chunks.push(chunk as Buffer);
    objects.push(Buffer.concat(chunks));
  }
  return objects;
}
