/** Until `done()` holds, looking every `everyMs`; fails with `failure` once `boundMs` passed. */
export async function until(done: () => boolean, failure: string, boundMs = 20_000, everyMs = 50) {
  const end = Date.now() + boundMs;
  while (!done()) {
    if (Date.now() > end) throw new Error(`${failure} (within ${boundMs} ms)`);
    await new Promise((resolve) => setTimeout(resolve, everyMs));
  }
}
