/**
 * A substring search over many small texts, faster than testing each one (the caller gives
 * lower-case texts and terms, which makes it case-insensitive).
 *
 * Testing 100 000 directory entries one by one (three `includes` each) took 10–15 ms of CPU
 * per search. Here the texts are joined into a few hundred long strings ("chunks"), and one
 * `indexOf` over a chunk skips everything that cannot match at memory speed; only the hits
 * are located (and confirmed, for a term that could span two texts).
 *
 * The chunks follow the entries' order and are rebuilt when the entries change. Where a chunk
 * ends depends on its entries (an entry whose key ends in "00" closes one), not on positions,
 * so a record added at the front shifts every position but leaves every other chunk as it was:
 * a change rebuilds one chunk, not all 100 000 texts.
 *
 * Beside its text, a chunk keeps each entry's tag: a number below 256 that the caller derives
 * from what its filters test (a status, a flag). Entries are objects scattered over the heap,
 * and reading a field of each entry a search found cost as much as the text scan itself (a
 * cache miss apiece); a filter on tags reads one byte array instead.
 */

/** What SearchText needs of an entry besides its texts: a stable, random-looking key. */
export interface Searchable {
  id: string;
}

interface Chunk<E> {
  entries: E[];
  /** Each entry's tag. */
  tags: Uint8Array;
  /** The entries' texts, each followed by SEPARATOR. */
  text: string;
  /** Where each entry's text starts in `text`. */
  starts: Int32Array;
}

const SEPARATOR = "\u0000";
/** A chunk never grows past this, whatever its keys: a rebuild stays small. */
const MAX_CHUNK = 1024;

export class SearchText<E extends Searchable> {
  private chunks: Chunk<E>[] = [];
  private builtFor = -1;

  /**
   * @param fieldsOf the entry's lower-case texts a term may occur in
   * @param contains whether the term occurs in one of the entry's texts (the rule itself)
   * @param tagOf the entry's tag, 0 to 255, handed to `visit` with it
   */
  constructor(
    private readonly fieldsOf: (entry: E) => readonly string[],
    private readonly contains: (entry: E, term: string) => boolean,
    private readonly tagOf: (entry: E) => number = () => 0,
  ) {}

  /**
   * Calls `visit` for every entry whose texts contain `term` (lower-case), in the entries'
   * order. `version` names the state of `entries`: the chunks are rebuilt when it changes.
   */
  forEachContaining(
    entries: readonly E[],
    version: number,
    term: string,
    visit: (entry: E, tag: number) => void,
  ): void {
    const chunks = this.chunksFor(entries, version);
    // Only a term holding the separator can match across two texts; any other hit lies
    // within one text, so it needs no confirmation (which cost a third of a search).
    const confirm = term.includes(SEPARATOR);
    for (const chunk of chunks) this.searchChunk(chunk, term, confirm, visit);
  }

  /** Calls `visit` for every entry, in order (a list without a search). */
  forEach(entries: readonly E[], version: number, visit: (entry: E, tag: number) => void): void {
    for (const chunk of this.chunksFor(entries, version)) {
      for (let index = 0; index < chunk.entries.length; index += 1) {
        visit(chunk.entries[index], chunk.tags[index]);
      }
    }
  }

  /** The chunks of `entries` as of `version`, rebuilt if they were built for another. */
  private chunksFor(entries: readonly E[], version: number): Chunk<E>[] {
    if (version !== this.builtFor) this.rebuild(entries, version);
    return this.chunks;
  }

  private searchChunk(
    chunk: Chunk<E>,
    term: string,
    confirm: boolean,
    visit: (entry: E, tag: number) => void,
  ): void {
    const { text, starts, entries, tags } = chunk;
    let at = text.indexOf(term);
    while (at !== -1) {
      const index = entryAt(starts, at);
      const entry = entries[index];
      if (!confirm || this.contains(entry, term)) {
        visit(entry, tags[index]);
        at = text.indexOf(term, index + 1 < starts.length ? starts[index + 1] : text.length);
      } else {
        at = text.indexOf(term, at + 1);
      }
    }
  }

  private rebuild(entries: readonly E[], version: number): void {
    const previous = new Map(this.chunks.map((chunk) => [chunk.entries[0], chunk]));
    const chunks: Chunk<E>[] = [];
    let first = 0;
    for (let index = 0; index < entries.length; index += 1) {
      const last = index === entries.length - 1;
      if (!last && !closesChunk(entries[index].id) && index - first + 1 < MAX_CHUNK) continue;
      const kept = previous.get(entries[first]);
      chunks.push(
        kept && sameEntries(kept.entries, entries, first, index + 1)
          ? kept
          : this.chunkOf(entries.slice(first, index + 1)),
      );
      first = index + 1;
    }
    this.chunks = chunks;
    this.builtFor = version;
  }

  private chunkOf(entries: E[]): Chunk<E> {
    const starts = new Int32Array(entries.length);
    const tags = new Uint8Array(entries.length);
    const parts: string[] = [];
    let length = 0;
    entries.forEach((entry, index) => {
      const part = this.fieldsOf(entry).join(SEPARATOR) + SEPARATOR;
      starts[index] = length;
      tags[index] = this.tagOf(entry);
      length += part.length;
      parts.push(part);
    });
    return { entries, tags, text: parts.join(""), starts };
  }
}

/** About one key in 256 closes a chunk (keys are UUID v7: their last characters are random). */
function closesChunk(id: string): boolean {
  return id.charCodeAt(id.length - 1) === 48 && id.charCodeAt(id.length - 2) === 48;
}

function sameEntries<E>(kept: E[], entries: readonly E[], from: number, to: number): boolean {
  if (kept.length !== to - from) return false;
  for (let index = from; index < to; index += 1) {
    if (kept[index - from] !== entries[index]) return false;
  }
  return true;
}

/** The index of the last start at or before `offset` (binary search). */
function entryAt(starts: Int32Array, offset: number): number {
  let low = 0;
  let high = starts.length - 1;
  while (low < high) {
    const middle = (low + high + 1) >>> 1;
    if (starts[middle] <= offset) low = middle;
    else high = middle - 1;
  }
  return low;
}
