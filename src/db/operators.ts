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

export function lessThan<T>(value: T) {
  return mongoose.trusted({ $lt: value });
}
