/** MongoDB's E11000 (and FerretDB's equivalent): a unique index refused the write. */
export function isDuplicateKeyError(error: unknown): boolean {
  return typeof error === "object" && error !== null && (error as { code?: unknown }).code === 11000;
}
