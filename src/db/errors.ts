/** A unique index refused the write (MongoDB's E11000, on inserts and updates alike). */
export function isDuplicateKeyError(error: unknown): boolean {
  return (
    typeof error === "object" && error !== null && (error as { code?: unknown }).code === 11000
  );
}

/**
 * What a repository's write answers when a unique index refused it. The service says what the
 * refusal means (a taken email, a second open application) and never sees the driver's error.
 */
export const DUPLICATE = Symbol("duplicate key");
export type Duplicate = typeof DUPLICATE;

/** The write's result, or DUPLICATE when a unique index refused it; any other error passes. */
export async function unlessDuplicate<T>(write: PromiseLike<T>): Promise<T | Duplicate> {
  try {
    return await write;
  } catch (error) {
    if (isDuplicateKeyError(error)) return DUPLICATE;
    throw error;
  }
}
