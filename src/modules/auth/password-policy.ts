import { registerDecorator, type ValidationOptions } from "class-validator";

/** bcrypt reads at most 72 bytes; anything longer would be silently truncated, so refuse it. */
export const PASSWORD_MAX_BYTES = 72;
export const PASSWORD_MIN_BYTES = 8;

/** Why a password is refused (length, an uppercase letter, a digit, a symbol), or undefined. */
export function passwordProblem(password: string): string | undefined {
  const bytes = Buffer.byteLength(password, "utf8");
  if (bytes < PASSWORD_MIN_BYTES) return `password must be at least ${PASSWORD_MIN_BYTES} bytes`;
  if (bytes > PASSWORD_MAX_BYTES) return `password must be at most ${PASSWORD_MAX_BYTES} bytes`;
  if (!/\p{Lu}/u.test(password)) return "password must contain an uppercase letter";
  if (!/\d/.test(password)) return "password must contain a digit";
  if (!/[^\p{L}\p{N}\s]/u.test(password)) return "password must contain a special character";
  return undefined;
}

/** class-validator form of the policy, so a weak password is a VALIDATION_ERROR on its field. */
export function IsStrongPassword(options?: ValidationOptions): PropertyDecorator {
  return (target, propertyName) => {
    registerDecorator({
      name: "isStrongPassword",
      target: target.constructor,
      propertyName: String(propertyName),
      options,
      validator: {
        validate: (value: unknown) => typeof value === "string" && !passwordProblem(value),
        defaultMessage: (args) =>
          passwordProblem(String(args?.value ?? ""))?.replace(/^password/, args?.property ?? "") ??
          "password is too weak",
      },
    });
  };
}

/** The field must equal another field of the same arguments (confirmPassword). */
export function SameAs(other: string, options?: ValidationOptions): PropertyDecorator {
  return (target, propertyName) => {
    registerDecorator({
      name: "sameAs",
      target: target.constructor,
      propertyName: String(propertyName),
      constraints: [other],
      options,
      validator: {
        validate: (value: unknown, args) =>
          value === (args?.object as Record<string, unknown>)[other],
        defaultMessage: (args) => `${args?.property ?? "value"} must match ${other}`,
      },
    });
  };
}
