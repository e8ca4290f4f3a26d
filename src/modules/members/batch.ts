/**
 * Gathers the single-key lookups made while one answer is being built (a page of users, each
 * resolving its own field) into one call of `loadMany`. Nothing is cached: each batch asks the
 * database afresh.
 */
export class Batch<K, V> {
  private pending: Map<
    K,
    { resolve: (value: V | undefined) => void; reject: (e: unknown) => void }[]
  > | null = null;

  constructor(private readonly loadMany: (keys: K[]) => Promise<Map<K, V>>) {}

  load(key: K): Promise<V | undefined> {
    if (!this.pending) {
      this.pending = new Map();
      // After the resolvers of the current answer have all asked.
      setImmediate(() => this.flush());
    }
    const waiting = this.pending.get(key) ?? [];
    this.pending.set(key, waiting);
    return new Promise((resolve, reject) => waiting.push({ resolve, reject }));
  }

  private flush(): void {
    const batch = this.pending!;
    this.pending = null;
    this.loadMany([...batch.keys()]).then(
      (found) => {
        for (const [key, waiting] of batch) for (const w of waiting) w.resolve(found.get(key));
      },
      (error: unknown) => {
        for (const waiting of batch.values()) for (const w of waiting) w.reject(error);
      },
    );
  }
}
