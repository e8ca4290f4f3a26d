/** A unique index refused the write (MongoDB's E11000, on inserts and updates alike). */
export function isDuplicateKeyError(error: unknown): boolean {
  return (
    typeof error === "object" && error !== null && (error as { code?: unknown }).code === 11000
  );
}
