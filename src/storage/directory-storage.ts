import { randomBytes } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import type { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { ensurePrivateDir } from "../db/secret-file";
import { assertSafeKey, ObjectNotFoundError, type ObjectStorage } from "./object-storage";

/** A draft being written; never listed as a key, and removed when the write fails. */
const DRAFT = ".draft-";

/**
 * Files in one directory (`file://<dir>`): the directory is 0700 and every file 0600, so only
 * the service's own user reads them. A file is written under a draft name and renamed into
 * place, so a reader never sees half of one and a failed write leaves nothing.
 */
export class DirectoryStorage implements ObjectStorage {
  constructor(private readonly root: string) {
    ensurePrivateDir(root);
  }

  async put(key: string, body: Readable): Promise<void> {
    const target = this.pathOf(key);
    const draft = path.join(this.root, `${DRAFT}${key}-${randomBytes(6).toString("hex")}`);
    try {
      await pipeline(body, fs.createWriteStream(draft, { mode: 0o600, flags: "wx" }));
      await fs.promises.rename(draft, target);
    } catch (error) {
      await fs.promises.rm(draft, { force: true });
      throw error;
    }
  }

  async get(key: string): Promise<Readable> {
    const file = this.pathOf(key);
    try {
      const handle = await fs.promises.open(file, "r");
      // Large reads: a 4 MiB file in a few chunks, not 64 of them, on its way to a socket.
      return handle.createReadStream({ highWaterMark: 1024 * 1024 });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "ENOENT") throw new ObjectNotFoundError(key);
      throw error;
    }
  }

  async delete(key: string): Promise<void> {
    await fs.promises.rm(this.pathOf(key), { force: true });
  }

  async *keys(): AsyncIterable<string> {
    for (const name of await fs.promises.readdir(this.root)) {
      if (!name.startsWith(DRAFT)) yield name;
    }
  }

  async close(): Promise<void> {}

  private pathOf(key: string): string {
    assertSafeKey(key);
    return path.join(this.root, key);
  }
}
