import {
  createCipheriv,
  createDecipheriv,
  createHash,
  createHmac,
  hkdfSync,
  randomBytes,
} from "node:crypto";
import { readOrCreateSecretFile } from "./secret-file";

/*
 * Field-level encryption at rest (AES-256-GCM) for the few values whose disclosure would do
 * real harm on their own (government numbers). A stored value reads
 * `enc:1:<key id>:<base64url of iv | ciphertext | tag>`; the key id (the first 8 hex digits of
 * the key's SHA-256) says which key sealed it, so keys can be rotated: the current key seals,
 * every configured key opens, and `npm run data-key:rotate` re-seals what older keys sealed.
 * The field's name is authenticated with it, so a value copied into another field will not
 * open. Values stored before encryption existed (no prefix) read as they are until rotated.
 */

const PREFIX = "enc:1:";
const IV_BYTES = 12;
const TAG_BYTES = 16;

export class DataKeyError extends Error {}

export class FieldCipher {
  private readonly keys = new Map<string, Buffer>();
  private readonly currentId: string;
  /** Per data key, the HMAC key of fingerprints (derived, so a fingerprint never reveals it). */
  private readonly fingerprintKeys = new Map<string, Buffer>();

  /** `current` seals; `current` and `previous` open. Each key is 32 bytes. */
  constructor(current: Buffer, previous: Buffer[] = []) {
    for (const key of [current, ...previous]) {
      if (key.length !== 32) throw new DataKeyError("A data key must be 32 bytes");
      this.keys.set(keyIdOf(key), key);
      this.fingerprintKeys.set(
        keyIdOf(key),
        Buffer.from(hkdfSync("sha256", key, Buffer.alloc(0), "field-fingerprint:1", 32)),
      );
    }
    this.currentId = keyIdOf(current);
  }

  seal(plain: string, field: string): string {
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv("aes-256-gcm", this.keys.get(this.currentId)!, iv);
    cipher.setAAD(Buffer.from(field, "utf8"));
    const body = Buffer.concat([cipher.update(plain, "utf8"), cipher.final(), cipher.getAuthTag()]);
    return `${PREFIX}${this.currentId}:${Buffer.concat([iv, body]).toString("base64url")}`;
  }

  open(stored: string, field: string): string {
    if (!stored.startsWith(PREFIX)) return stored;
    const [keyId, payload] = stored.slice(PREFIX.length).split(":");
    const key = this.keys.get(keyId);
    if (!key)
      throw new DataKeyError(
        `No configured data key has id ${keyId} (DATA_KEY, DATA_KEYS_PREVIOUS)`,
      );
    const bytes = Buffer.from(payload ?? "", "base64url");
    const decipher = createDecipheriv("aes-256-gcm", key, bytes.subarray(0, IV_BYTES));
    decipher.setAAD(Buffer.from(field, "utf8"));
    decipher.setAuthTag(bytes.subarray(bytes.length - TAG_BYTES));
    try {
      const body = bytes.subarray(IV_BYTES, bytes.length - TAG_BYTES);
      return Buffer.concat([decipher.update(body), decipher.final()]).toString("utf8");
    } catch {
      throw new DataKeyError(`A value sealed with data key ${keyId} failed authentication`);
    }
  }

  /** True when `stored` is sealed with the current key (nothing for a rotation to do). */
  isCurrent(stored: string): boolean {
    return stored.startsWith(`${PREFIX}${this.currentId}:`);
  }

  /**
   * A keyed hash (HMAC-SHA256 under a key derived from the current data key) of a sealed
   * field's value: equal values give equal fingerprints, so they can be compared through an
   * index without the value ever being stored in clear. `field` separates the fields' spaces.
   */
  fingerprint(plain: string, field: string): string {
    return fingerprintWith(this.fingerprintKeys.get(this.currentId)!, plain, field);
  }

  /**
   * The value's fingerprint under every configured key, current first: what a lookup matches
   * while a rotation has not yet re-keyed every stored fingerprint.
   */
  fingerprints(plain: string, field: string): string[] {
    const current = this.fingerprintKeys.get(this.currentId)!;
    const others = [...this.fingerprintKeys.values()].filter((key) => key !== current);
    return [current, ...others].map((key) => fingerprintWith(key, plain, field));
  }

  sealNullable(plain: string | null, field: string): string | null {
    return plain === null ? null : this.seal(plain, field);
  }

  openNullable(stored: string | null, field: string): string | null {
    return stored === null ? null : this.open(stored, field);
  }
}

function fingerprintWith(key: Buffer, plain: string, field: string): string {
  return createHmac("sha256", key).update(field).update("\u0000").update(plain).digest("base64url");
}

export function keyIdOf(key: Buffer): string {
  return createHash("sha256").update(key).digest("hex").slice(0, 8);
}

/** A data key as configuration gives it: 32 bytes in base64 (standard or URL-safe) or hex. */
export function parseDataKey(text: string): Buffer | undefined {
  const trimmed = text.trim();
  const bytes = /^[0-9a-fA-F]{64}$/.test(trimmed)
    ? Buffer.from(trimmed, "hex")
    : Buffer.from(trimmed, "base64");
  return bytes.length === 32 ? bytes : undefined;
}

/**
 * The cipher of a deployment: DATA_KEY (and DATA_KEYS_PREVIOUS) when configured; otherwise
 * (embedded default only, config refuses this in production) a key generated once and kept in
 * the data directory beside the data it protects.
 */
export function resolveFieldCipher(
  configured: { dataKey?: Buffer; dataKeysPrevious: Buffer[] },
  dataDir: string,
): FieldCipher {
  const current =
    configured.dataKey ??
    Buffer.from(
      readOrCreateSecretFile(dataDir, "data-key", () => randomBytes(32).toString("base64")),
      "base64",
    );
  return new FieldCipher(current, configured.dataKeysPrevious);
}
