import mongoose from "mongoose";

/*
 * Query operators we write ourselves. The connection runs with sanitizeFilter, which turns any
 * `$` key reaching a filter into a literal match (so client input can never smuggle one in);
 * our own operators are marked trusted here, in one place.
 */

export function greaterThan<T>(value: T) {
  return mongoose.trusted({ $gt: value });
}

export function oneOf<T>(values: T[]) {
  return mongoose.trusted({ $in: values });
}

export function noneOf<T>(values: T[]) {
  return mongoose.trusted({ $nin: values });
}

export function lessThan<T>(value: T) {
  return mongoose.trusted({ $lt: value });
}

/** value <= bound (a date range's closed end: "has come by now"). */
export function atMost<T>(value: T) {
  return mongoose.trusted({ $lte: value });
}

/** from <= value < to; either bound may be absent. */
export function within<T>(from: T | null | undefined, to: T | null | undefined) {
  const range: Record<string, T> = {};
  if (from !== null && from !== undefined) range.$gte = from;
  if (to !== null && to !== undefined) range.$lt = to;
  return mongoose.trusted(range);
}

export function notEqual<T>(value: T) {
  return mongoose.trusted({ $ne: value });
}

/** An unanchored, case-sensitive match of `text` taken literally (callers normalise case). */
export function containing(text: string) {
  return mongoose.trusted({ $regex: text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&") });
}

/** The field is missing from the document (records written by an earlier version). */
export function absent() {
  return mongoose.trusted({ $exists: false });
}
