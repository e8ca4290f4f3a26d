import { validate, type ValidationError as ClassValidationError } from "class-validator";
import type { ValidatorFn } from "type-graphql";
import { ValidationError, type FieldError } from "../errors/app-errors";

/**
 * Runs class-validator on every argument object and reports each failure with the path the
 * client sent (`title`, `sections.1.type`), never type-graphql's internal argument names.
 */
export const validateArguments: ValidatorFn = async (value) => {
  const targets = Array.isArray(value) ? value : [value];
  const problems: FieldError[] = [];
  for (const target of targets) {
    if (target === null || typeof target !== "object") continue;
    const errors = await validate(target as object, { forbidUnknownValues: false });
    problems.push(...flatten(errors, ""));
  }
  if (problems.length > 0) throw new ValidationError(problems);
};

function flatten(errors: ClassValidationError[], prefix: string): FieldError[] {
  return errors.flatMap((error) => {
    const path = prefix ? `${prefix}.${error.property}` : error.property;
    const own = Object.values(error.constraints ?? {}).map((message) => ({
      path,
      message: withPath(message, error.property, path),
    }));
    return [...own, ...flatten(error.children ?? [], path)];
  });
}

/** class-validator says "title must be…"; for nested fields say which one. */
function withPath(message: string, property: string, path: string): string {
  return message.startsWith(`${property} `) ? `${path}${message.slice(property.length)}` : message;
}
