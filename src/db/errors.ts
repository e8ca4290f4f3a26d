/**
 * A unique index refused the write. MongoDB says E11000; FerretDB v1 says so for inserts but
 * reports the same violation inside findAndModify as an InternalError carrying SQLite's text.
 */
export function isDuplicateKeyError(error: unknown): boolean {
  if (typeof error !== "object" || error === null) return false;
  const { code, message } = error as { code?: unknown; message?: unknown };
  return (
    code === 11000 || (typeof message === "string" && message.includes("UNIQUE constraint failed"))
  );
}
