import { DateTimeISOResolver } from "graphql-scalars";
import { GraphQLError, GraphQLScalarType, Kind } from "graphql";

/** Both accepted forms, in every refusal, so a client sees at once what to send. */
export const DATE_INPUT_FORMS =
  "a calendar date YYYY-MM-DD (taken as midnight UTC, e.g. 1985-06-12) or a full ISO 8601 " +
  "date-time (e.g. 1985-06-12T08:30:00Z or 1985-06-12T16:30:00+08:00)";

const CALENDAR_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

/**
 * A date a client sends: forms and spreadsheets send plain calendar dates, APIs
 * send date-times; both are taken, anything else is refused naming both forms. Undefined for
 * a refused value.
 */
export function parseDateInput(value: unknown): Date | undefined {
  if (typeof value !== "string") return undefined;
  const text = value.trim();
  const calendar = CALENDAR_DATE.exec(text);
  if (calendar) {
    const [year, month, day] = calendar.slice(1).map(Number);
    const date = new Date(Date.UTC(year, month - 1, day));
    // Date.UTC rolls 2026-02-30 over into March: a date that is not on the calendar is refused.
    const real =
      date.getUTCFullYear() === year &&
      date.getUTCMonth() === month - 1 &&
      date.getUTCDate() === day;
    return real ? date : undefined;
  }
  try {
    return DateTimeISOResolver.parseValue(text);
  } catch {
    return undefined;
  }
}

function parsed(value: unknown): Date {
  const date = parseDateInput(value);
  if (!date) throw new GraphQLError(`Expected a date: ${DATE_INPUT_FORMS}`);
  return date;
}

/**
 * The schema's one date scalar, in place of graphql-scalars' DateTimeISO under the same name
 * (so no client's variable declarations change): answers are always full UTC date-times as
 * DateTimeISO writes them, while a date sent in may also be a plain calendar date.
 */
export const DateTimeScalar = new GraphQLScalarType<Date, string>({
  name: "DateTimeISO",
  description:
    "A date-time in answers, always ISO 8601 in UTC (2026-11-22T06:58:49.000Z). A date sent " +
    `to the service is ${DATE_INPUT_FORMS}.`,
  // Sofa's OpenAPI reads a scalar's JSON shape here, as it does on graphql-scalars' own.
  extensions: { jsonSchema: { type: "string", format: "date-time" } },
  serialize: (value) => DateTimeISOResolver.serialize(value),
  parseValue: parsed,
  parseLiteral: (ast) => {
    if (ast.kind !== Kind.STRING) throw new GraphQLError(`Expected a date: ${DATE_INPUT_FORMS}`);
    return parsed(ast.value);
  },
});
