import { createHash, randomBytes, randomInt } from "node:crypto";

/** Letters and digits a person cannot confuse when typing a code from a mail (no I, O, 0, 1). */
const CODE_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789";
export const VERIFICATION_CODE_LENGTH = 8;

/** The email verification code: 8 characters of a 32-letter alphabet (40 bits). */
export function newVerificationCode(): string {
  let code = "";
  for (let i = 0; i < VERIFICATION_CODE_LENGTH; i += 1) {
    code += CODE_ALPHABET[randomInt(CODE_ALPHABET.length)];
  }
  return code;
}

/** Codes are typed by people: accept lower case and stray spaces. */
export function normaliseVerificationCode(code: string): string {
  return code.replace(/\s+/g, "").toUpperCase();
}

/** An opaque bearer secret (reset tokens, refresh tokens): 256 random bits. */
export function newOpaqueToken(): string {
  return randomBytes(32).toString("base64url");
}

/**
 * What is stored instead of a code or token. The inputs carry 40 to 256 random bits, so a
 * fast hash is enough (no password-style stretching) and lets a code be looked up by hash.
 */
export function hashSecret(secret: string): string {
  return createHash("sha256").update(secret).digest("hex");
}
