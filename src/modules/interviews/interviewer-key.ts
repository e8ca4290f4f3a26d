import { registerDecorator, type ValidationOptions } from "class-validator";

/*
 * An interviewer's key: the short handle the organisation's site books by (`ptr-rodel`).
 * Lower-case letters and digits in hyphen-separated words; compared in any letter case and
 * stored in lower case, as emails are. Never shaped like a UUID, so a reference is an id or a
 * key by its form alone.
 */

export const KEY_MAX = 40;
const KEY_SHAPE = /^[a-z0-9]+(?:-[a-z0-9]+)*$/i;
const UUID_SHAPE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export const KEY_RULE = `up to ${KEY_MAX} lower-case letters, digits and single hyphens, e.g. ptr-rodel`;

export const isUuid = (value: string): boolean => UUID_SHAPE.test(value);

export const isInterviewerKey = (value: string): boolean =>
  value.length <= KEY_MAX && KEY_SHAPE.test(value) && !isUuid(value);

/** What a reference names: an id (UUID) or a key, in lower case; null when it is neither. */
export function interviewerRef(value: string): { id: string } | { key: string } | null {
  const trimmed = value.trim().toLowerCase();
  if (isUuid(trimmed)) return { id: trimmed };
  return isInterviewerKey(trimmed) ? { key: trimmed } : null;
}

/** A key made of a name (records written before keys existed): "Rev. Ana Reyes" → "rev-ana-reyes". */
export function keyFromName(name: string): string {
  const words = name
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter(Boolean);
  let key = "";
  for (const word of words) {
    const next = key ? `${key}-${word}` : word;
    if (next.length > KEY_MAX - 7) break;
    key = next;
  }
  return key || "interviewer";
}

/** class-validator: a key (`asReference`: or an interviewer's id). */
export function IsInterviewerKey(asReference: boolean, options?: ValidationOptions) {
  return (target: object, propertyName: string | symbol): void => {
    registerDecorator({
      name: asReference ? "isInterviewerRef" : "isInterviewerKey",
      target: target.constructor,
      propertyName: String(propertyName),
      options,
      validator: {
        validate: (value: unknown) =>
          typeof value === "string" &&
          (asReference ? interviewerRef(value) !== null : isInterviewerKey(value.trim())),
        defaultMessage: (args) =>
          asReference
            ? `${args?.property ?? "id"} must be an interviewer's id (a UUID) or key (${KEY_RULE})`
            : `${args?.property ?? "key"} must be ${KEY_RULE}`,
      },
    });
  };
}
