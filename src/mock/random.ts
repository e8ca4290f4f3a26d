/** A small seeded generator: the mock answers the same data for the same request, every run. */
export interface Random {
  /** A number in [0, 1). */
  next(): number;
  int(below: number): number;
  pick<T>(items: readonly T[]): T;
  uuid(): string;
}

/**
 * A generator seeded by what a value is about (the run's seed, a type, a record's number), so
 * a record is the same whichever request asks for it first.
 */
export function seeded(...parts: (string | number)[]): Random {
  let state = fnv1a(parts.join("\u0000"));
  const next = () => {
    // mulberry32
    state = (state + 0x6d2b79f5) | 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (below: number) => Math.floor(next() * below);
  const hex = (length: number) => Array.from({ length }, () => int(16).toString(16)).join("");
  return {
    next,
    int,
    pick: (items) => items[int(items.length)],
    // The shape of a UUID v7 (the service's ids), from the generator rather than the clock.
    uuid: () =>
      `0190${hex(4)}-${hex(4)}-7${hex(3)}-${(8 + int(4)).toString(16)}${hex(3)}-${hex(12)}`,
  };
}

function fnv1a(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash >>> 0;
}
