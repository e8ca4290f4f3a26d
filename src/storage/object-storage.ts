import type { Readable } from "node:stream";

/**
 * Where file bytes live, never the database (docs/decisions.md, "Files"). One small interface
 * so a directory serves a single instance, the default, and an S3-compatible bucket serves
 * several replicas.
 * Keys are chosen by the service (a file's id), never by a client.
 */
export interface ObjectStorage {
  /**
   * Stores `body` under `key`, resolving once every byte is kept. If `body` fails or is
   * destroyed, nothing is left under `key` and the promise rejects.
   */
  put(key: string, body: Readable): Promise<void>;
  /** The bytes under `key`; rejects with ObjectNotFoundError when there are none. */
  get(key: string): Promise<Readable>;
  /** Removes the bytes under `key`; no error when there are none. */
  delete(key: string): Promise<void>;
  /** Every key stored (tests and the erasure check use it: "nothing of them is left"). */
  keys(): AsyncIterable<string>;
  /** Releases connections, at shutdown. */
  close(): Promise<void>;
}

export class ObjectNotFoundError extends Error {
  constructor(key: string) {
    super(`No stored object under ${key}`);
  }
}

/** Keys are ids the service made: letters, digits and dashes only, so no key names a path. */
export function assertSafeKey(key: string): void {
  if (!/^[A-Za-z0-9-]{1,100}$/.test(key)) throw new Error("Refused storage key");
}
