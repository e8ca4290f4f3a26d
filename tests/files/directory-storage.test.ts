import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { DirectoryStorage } from "../../src/storage/directory-storage";
import { describeStorageContract } from "../support/storage-contract";

const root = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "dir-storage-")), "files");
const storage = new DirectoryStorage(root);
afterAll(() => fs.rmSync(path.dirname(root), { recursive: true, force: true }));

describeStorageContract("directory", () => storage);

it("keeps the directory 0700 and every file 0600, and leaves no draft behind", () => {
  expect(fs.statSync(root).mode & 0o777).toBe(0o700);
  for (const name of fs.readdirSync(root)) {
    expect(name.startsWith(".draft-")).toBe(false);
    expect(fs.statSync(path.join(root, name)).mode & 0o777).toBe(0o600);
  }
});
