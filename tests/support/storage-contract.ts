import { randomBytes } from "node:crypto";
import { Readable } from "node:stream";
import { ObjectNotFoundError, type ObjectStorage } from "../../src/storage/object-storage";
import { uuidv7 } from "../../src/db/uuid";

const readAll = async (stream: Readable) => {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
};

const keysOf = async (storage: ObjectStorage) => {
  const keys: string[] = [];
  for await (const key of storage.keys()) keys.push(key);
  return keys;
};

/** What every driver promises (src/storage/object-storage.ts), run against each one. */
export function describeStorageContract(name: string, storage: () => ObjectStorage): void {
  describe(`${name}: the storage contract`, () => {
    it("keeps streamed bytes under a key and gives them back whole", async () => {
      const key = uuidv7();
      const bytes = randomBytes(3 * 1024 * 1024 + 17);
      const chunks = [
        bytes.subarray(0, 1000),
        bytes.subarray(1000, 2_000_000),
        bytes.subarray(2_000_000),
      ];
      await storage().put(key, Readable.from(chunks));
      // Buffer.equals: jest's deep equality walks megabytes byte by byte, slowly.
      expect((await readAll(await storage().get(key))).equals(bytes)).toBe(true);
      expect(await keysOf(storage())).toContain(key);
    });

    it("rejects an unknown key with ObjectNotFoundError and deletes idempotently", async () => {
      const key = uuidv7();
      await expect(storage().get(key)).rejects.toBeInstanceOf(ObjectNotFoundError);
      await storage().put(key, Readable.from([Buffer.from("x")]));
      await storage().delete(key);
      await storage().delete(key);
      await expect(storage().get(key)).rejects.toBeInstanceOf(ObjectNotFoundError);
      expect(await keysOf(storage())).not.toContain(key);
    });

    it("leaves nothing when the body fails half-way", async () => {
      const key = uuidv7();
      const body = new Readable({ read() {} });
      body.push(randomBytes(64 * 1024));
      setTimeout(() => body.destroy(new Error("client went away")), 50);
      await expect(storage().put(key, body)).rejects.toThrow();
      await expect(storage().get(key)).rejects.toBeInstanceOf(ObjectNotFoundError);
      expect(await keysOf(storage())).not.toContain(key);
    });

    it("refuses a key that could name a path", async () => {
      await expect(storage().put("../escape", Readable.from([Buffer.from("x")]))).rejects.toThrow();
      await expect(storage().get("a/b")).rejects.toThrow();
    });
  });
}
