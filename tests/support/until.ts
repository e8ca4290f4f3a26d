/**
 * Until `done()` holds, looking every `everyMs`; fails with `failure` (written when it fails, so
 * it can say what was seen) once `boundMs` passed.
 */
export async function until(
  done: () => boolean,
  failure: string | (() => string),
  boundMs = 20_000,
  everyMs = 50,
) {
  const end = Date.now() + boundMs;
  while (!done()) {
    if (Date.now() > end) {
      throw new Error(
        `${typeof failure === "string" ? failure : failure()} (within ${boundMs} ms)`,
      );
    }
    await new Promise((resolve) => setTimeout(resolve, everyMs));
  }
}

/**
 * Reads until `check` holds, every 250 ms, and answers the value read; once `ms` passed, the
 * last value, for the caller's expect to show. Bounds are generous: it returns as soon as
 * `check` holds, and a busy machine runs background jobs late.
 */
export async function eventually<T>(
  read: () => T | Promise<T>,
  check: (value: T) => boolean,
  ms = 60_000,
): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const value = await read();
    if (check(value)) return value;
    if (Date.now() > end) return value;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}
