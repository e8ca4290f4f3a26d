import { ValidationError, type FieldError } from "../../errors/app-errors";
import { uuidv7 } from "../../db/uuid";
import type { SectionRecord } from "./section.model";
import type { SectionInput } from "./section.input";

export interface SectionRules {
  /** Office titles require a title on every section; branch services do not. */
  titleRequired: boolean;
}

/**
 * The contract's replace semantics: the given list becomes the new list. An entry with the
 * id of an existing section keeps that id (it is that section, updated); an entry without
 * an id is new; existing sections left out are removed. An id we never issued is an error
 * rather than a silent insert, so a client working from a stale copy finds out.
 */
export function replaceSections(
  existing: SectionRecord[],
  incoming: SectionInput[],
  rules: SectionRules,
): SectionRecord[] {
  const known = new Set(existing.map((section) => section._id));
  const seen = new Set<string>();
  const errors: FieldError[] = [];
  const result = incoming.map((input, index) => {
    if (input.id !== undefined) {
      if (!known.has(input.id))
        errors.push({ path: `sections.${index}.id`, message: "no section with this id" });
      else if (seen.has(input.id))
        errors.push({ path: `sections.${index}.id`, message: "section id given twice" });
      seen.add(input.id);
    }
    if (rules.titleRequired && (input.title === undefined || input.title === null)) {
      errors.push({ path: `sections.${index}.title`, message: "title is required" });
    }
    return toRecord(input);
  });
  if (errors.length > 0) throw new ValidationError(errors);
  return result;
}

export function newSections(incoming: SectionInput[], rules: SectionRules): SectionRecord[] {
  return replaceSections(
    [],
    incoming.map((input) => ({ ...input, id: undefined })),
    rules,
  );
}

function toRecord(input: SectionInput): SectionRecord {
  return {
    _id: input.id ?? uuidv7(),
    title: input.title?.trim() ?? null,
    type: input.type,
    items: input.items.map((item) => ({ content: item.content })),
  };
}
