/** A public answer as it goes out: what every reader that shared its run is sent. */
export interface SharedAnswer {
  status: number;
  headers: Headers;
  body: string;
}

/**
 * Concurrent requests for the same version of a public answer (one version ETag: the same
 * operation, arguments and change stamps) share one run of it. A busy public page otherwise
 * runs the same query once for every reader waiting at that moment, which on the directory is
 * one aggregation over the approved members each. An answer is held only while it is being
 * made, so nothing outlives the requests that asked for it, and a reader that comes after a
 * write has another version, hence a run of its own.
 */
export class SharedReads {
  private readonly running = new Map<string, Promise<SharedAnswer>>();

  answer(version: string, make: () => Promise<SharedAnswer>): Promise<SharedAnswer> {
    const running = this.running.get(version);
    if (running) return running;
    const made = make().finally(() => this.running.delete(version));
    this.running.set(version, made);
    return made;
  }
}
