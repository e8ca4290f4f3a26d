import { S3Storage } from "../../src/storage/s3-storage";
import {
  S3_TEST_CREDENTIALS,
  startObjectStore,
  type RunningObjectStore,
} from "../support/object-store";
import { describeStorageContract } from "./storage-contract";

let server: RunningObjectStore;
let storage: S3Storage;

beforeAll(async () => {
  server = await startObjectStore();
  storage = new S3Storage({
    bucket: "contract-tests",
    endpoint: server.endpoint,
    region: "us-east-1",
    forcePathStyle: true,
    ...S3_TEST_CREDENTIALS,
  });
}, 90_000);
afterAll(async () => {
  await storage?.close();
  await server?.stop();
});

describeStorageContract("S3 (SeaweedFS)", () => storage);

it("refuses requests signed with other credentials", async () => {
  const stranger = new S3Storage({
    bucket: "contract-tests",
    endpoint: server.endpoint,
    region: "us-east-1",
    forcePathStyle: true,
    accessKeyId: "someone-else",
    secretAccessKey: "not-the-secret-key-0123456789",
  });
  const keys = async () => {
    for await (const key of stranger.keys()) return key;
  };
  await expect(keys()).rejects.toThrow();
  await stranger.close();
});
