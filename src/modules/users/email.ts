import { registerDecorator, type ValidationOptions } from "class-validator";

const EMAIL_MAX = 254;
const EMAIL_SHAPE = /^[^\s@]+@[^\s@.]+(\.[^\s@.]+)+$/;

/** Emails are trimmed and lower-cased before storage and comparison, so one address is one account. */
export function normaliseEmail(email: string): string {
  return email.trim().toLowerCase();
}

/** An email address once trimmed: the client may send stray spaces, not a malformed address. */
export function IsEmailAddress(options?: ValidationOptions): PropertyDecorator {
  return (target, propertyName) => {
    registerDecorator({
      name: "isEmailAddress",
      target: target.constructor,
      propertyName: String(propertyName),
      options,
      validator: {
        validate: (value: unknown) => {
          if (typeof value !== "string") return false;
          const email = value.trim();
          return email.length <= EMAIL_MAX && EMAIL_SHAPE.test(email);
        },
        defaultMessage: (args) => `${args?.property ?? "email"} must be an email address`,
      },
    });
  };
}
