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
 * ends depends on its entries (an entry whose key ends in "000" to "700" closes one), not on
 * positions, so a record added at the front shifts every position but leaves every other chunk
 * as it was: a change rebuilds one chunk, not all 100 000 texts.
 *
 * Chunks average 512 entries. A search looks up its two trigrams in every chunk, a few cache
 * misses each; at 256 entries a chunk, that lookup was much of a search under load. Compared
 * in one process over 100 000 demo entries, 4-letter surname prefixes: 509 µs a search at
 * 256 entries against 436 µs at 512 (818 against 700 µs with the caches flushed between
 * searches, as under load). A changed chunk takes about 2 ms to rebuild instead of 1 ms.
 *
 * Beside its text, a chunk keeps each entry's tag: a number below 256 that the caller derives
 * from what its filters test (a status, a flag). Entries are objects scattered over the heap,
 * and reading a field of each entry a search found cost as much as the text scan itself (a
 * cache miss apiece); a filter on tags reads one byte array instead.
 *
 * A term of three characters or more is not scanned for at all: each chunk also indexes its
 * entries by the three-character sequences (trigrams) of their texts, and only the entries
 * holding both the term's first and its last trigram are looked at in the text. The scan read
 * all 6.5 MB of text of 100 000 member records for every search (about 2.3 ms); the index
 * finds the same entries in about 0.33 ms, for about 21 MB of typed arrays.
 *
 * Confirming each candidate in the text (a call into `indexOf` and a cache miss on the text)
 * was then two thirds of a search. So the index also keeps, beside each key, where the
 * trigram first occurs in the entry's text (4.7 MB more for 100 000 entries), and trigrams of
 * the usual characters (see SYMBOLS) get codes of their own rather than shared hashes. For a
 * term of three to six such characters, its first and last trigrams together spell all of it:
 * an entry whose first occurrences of the two lie exactly the term's length apart holds the
 * term there, and needs no look at its text. Only the other candidates (the two trigrams first
 * found elsewhere, as in "amit smith" for "smit") are confirmed in the text as before.
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
  trigrams: TrigramIndex;
}

interface TrigramIndex {
  /**
   * `trigramCode(...) * MAX_CHUNK + entry index` for every distinct trigram of every entry,
   * ascending; so one trigram's entries are a run, in entry order.
   */
  keys: Uint32Array;
  /**
   * Beside each key, where its trigram first occurs in the entry's text, or UNKNOWN_AT when
   * that is UNKNOWN_AT or further in.
   */
  firstAt: Uint8Array;
  /**
   * Where the keys of each value of their top BUCKET_BITS bits start (and, last, the end): a
   * lookup bisects one bucket, a few cache lines, rather than all the chunk's keys (about
   * 13 000, up to 55 000), which was a cache miss per step.
   */
  buckets: Uint32Array;
}

const SEPARATOR = "\u0000";
const SEPARATOR_CODE = SEPARATOR.charCodeAt(0);
/** A chunk never grows past this, whatever its keys: a rebuild stays small. A power of two. */
const MAX_CHUNK = 2048;
/** An entry's index in its chunk, from a trigram key (a mask: keys pass 2^31, `%` is slow there). */
const INDEX_MASK = MAX_CHUNK - 1;
/**
 * Trigram codes have this many bits, what a 32-bit key leaves beside an entry index: 7 bits
 * for each character's symbol.
 */
const TRIGRAM_BITS = 32 - Math.log2(MAX_CHUNK);
const SYMBOL_BITS = TRIGRAM_BITS / 3;
const TRIGRAM_MASK = (1 << TRIGRAM_BITS) - 1;
/** A first occurrence this far into an entry's text, or further, is not recorded. */
const UNKNOWN_AT = 255;
/** The longest term whose first and last trigram cover all of it. */
const LONGEST_SPELLED = 6;

/**
 * The characters that get a symbol of their own in trigram codes: lower-case printable ASCII
 * and the lower-case letters of Latin-1 and of the Latin alphabets nearby, what names, emails
 * and phone numbers here are made of. Any other character is symbol 0, so trigrams holding
 * one may share a code; a term holding one is always confirmed in the text.
 */
const SYMBOLS = new Uint8Array(0x180);
[
  " !\"#$%&'()*+,-./0123456789:;<=>?@[\\]^_`abcdefghijklmnopqrstuvwxyz{|}~",
  "ßàáâãäåæçèéêëìíîïðñòóôõöøùúûüýþÿ",
  "ąćęłńśźżčďěňřšťůžőűğış",
]
  .join("")
  .split("")
  .forEach((character, index) => (SYMBOLS[character.charCodeAt(0)] = index + 1));
if (SYMBOLS.reduce((most, symbol) => Math.max(most, symbol)) >= 1 << SYMBOL_BITS) {
  throw new Error("search-text: more symbols than a trigram code has room for");
}
const BUCKET_BITS = 10;
/** A key's bucket is its top BUCKET_BITS bits (keys use 32). */
const BUCKET_SHIFT = 32 - BUCKET_BITS;
const ZERO = "0".charCodeAt(0);
const EIGHT = "8".charCodeAt(0);

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
    if (!confirm && term.length >= 3) {
      const first = trigramCode(term, 0);
      const last = trigramCode(term, term.length - 3);
      const shift = spelledShift(term);
      for (const chunk of chunks) searchIndexed(chunk, term, first, last, shift, visit);
      return;
    }
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

  /**
   * Keeps every chunk whose entries are still there, in a row, and still end where a chunk
   * ends; only the rest is cut anew. Walking all the entries to find where chunks end read
   * each entry's key, a cache miss apiece: 1.5–4 ms for 100 000 entries after any change.
   */
  private rebuild(entries: readonly E[], version: number): void {
    const previous = new Map(this.chunks.map((chunk) => [chunk.entries[0], chunk]));
    const chunks: Chunk<E>[] = [];
    let first = 0;
    while (first < entries.length) {
      const kept = previous.get(entries[first]);
      if (kept && stillAChunk(kept.entries, entries, first)) {
        chunks.push(kept);
        first += kept.entries.length;
      } else {
        const end = chunkEnd(entries, first);
        chunks.push(this.chunkOf(entries.slice(first, end)));
        first = end;
      }
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
    return { entries, tags, text: parts.join(""), starts, trigrams: trigramIndex(parts) };
  }
}

/** Trigram keys with where each first occurs, the two arrays side by side. */
type KeyedTrigrams = Pick<TrigramIndex, "keys" | "firstAt">;

function trigramIndex(parts: readonly string[]): TrigramIndex {
  const { keys, firstAt } = trigramKeys(parts);
  const buckets = new Uint32Array((1 << BUCKET_BITS) + 1);
  let at = 0;
  for (let bucket = 0; bucket < buckets.length; bucket += 1) {
    while (at < keys.length && keys[at] >>> BUCKET_SHIFT < bucket) at += 1;
    buckets[bucket] = at;
  }
  return { keys, firstAt, buckets };
}

/**
 * The keys of each entry's trigrams (none that holds the separator), once per entry, with
 * where each first occurs. They are made entry by entry, each entry's in the order of its
 * text, so a stable sort by trigram code alone puts them in key order with the first
 * occurrence first among an entry's equal keys.
 */
function trigramKeys(parts: readonly string[]): KeyedTrigrams {
  let capacity = 0;
  for (const part of parts) capacity += Math.max(0, part.length - 2);
  const made: KeyedTrigrams = {
    keys: new Uint32Array(capacity),
    firstAt: new Uint8Array(capacity),
  };
  let count = 0;
  parts.forEach((part, index) => {
    for (let at = 0; at + 3 <= part.length; at += 1) {
      if (holdsSeparator(part, at)) continue;
      made.keys[count] = trigramCode(part, at) * MAX_CHUNK + index;
      made.firstAt[count++] = Math.min(at, UNKNOWN_AT);
    }
  });
  const { keys, firstAt } = sortByCode(made.keys.subarray(0, count), made.firstAt);
  let unique = 0;
  for (let at = 0; at < keys.length; at += 1) {
    // The same trigram again in one entry sorts right after its first occurrence: skip it.
    if (unique > 0 && keys[at] === keys[unique - 1]) continue;
    keys[unique] = keys[at];
    firstAt[unique++] = firstAt[at];
  }
  return { keys: keys.slice(0, unique), firstAt: firstAt.slice(0, unique) };
}

/**
 * `keys` (with their `firstAt`) stably sorted by their trigram code: a radix sort of the
 * code's two halves, faster here than sorting the keys with positions packed into doubles.
 */
function sortByCode(keys: Uint32Array, firstAt: Uint8Array): KeyedTrigrams {
  let from: KeyedTrigrams = { keys, firstAt };
  let to: KeyedTrigrams = {
    keys: new Uint32Array(keys.length),
    firstAt: new Uint8Array(keys.length),
  };
  const indexBits = Math.log2(MAX_CHUNK);
  const lowBits = Math.ceil(TRIGRAM_BITS / 2);
  for (const [shift, bits] of [
    [indexBits, lowBits],
    [indexBits + lowBits, TRIGRAM_BITS - lowBits],
  ]) {
    const mask = (1 << bits) - 1;
    const next = new Uint32Array(mask + 2);
    for (const key of from.keys) next[((key >>> shift) & mask) + 1] += 1;
    for (let digit = 1; digit < next.length; digit += 1) next[digit] += next[digit - 1];
    from.keys.forEach((key, at) => {
      const place = next[(key >>> shift) & mask]++;
      to.keys[place] = key;
      to.firstAt[place] = from.firstAt[at];
    });
    [from, to] = [to, from];
  }
  return from;
}

function holdsSeparator(text: string, at: number): boolean {
  return (
    text.charCodeAt(at) === SEPARATOR_CODE ||
    text.charCodeAt(at + 1) === SEPARATOR_CODE ||
    text.charCodeAt(at + 2) === SEPARATOR_CODE
  );
}

/**
 * The three characters of `text` at `at` as TRIGRAM_BITS bits: their symbols side by side,
 * mixed so that codes spread evenly over the buckets. Both steps can be undone, so trigrams
 * of symbols other than 0 never share a code.
 */
function trigramCode(text: string, at: number): number {
  const spelled =
    (symbolOf(text.charCodeAt(at)) << (2 * SYMBOL_BITS)) |
    (symbolOf(text.charCodeAt(at + 1)) << SYMBOL_BITS) |
    symbolOf(text.charCodeAt(at + 2));
  // Multiplying by an odd number (modulo 2^TRIGRAM_BITS) can be undone, and so can xor-ing a
  // number with itself shifted right.
  const mixed = Math.imul(spelled, 0x9e3779b1) & TRIGRAM_MASK;
  return mixed ^ (mixed >>> 11);
}

function symbolOf(code: number): number {
  return code < SYMBOLS.length ? SYMBOLS[code] : 0;
}

/**
 * How far the last trigram of `term` lies after its first when the two trigrams spell all of
 * it, each character with a symbol of its own; -1 when they do not, or may not.
 */
function spelledShift(term: string): number {
  if (term.length > LONGEST_SPELLED) return -1;
  for (let at = 0; at < term.length; at += 1) {
    if (symbolOf(term.charCodeAt(at)) === 0) return -1;
  }
  return term.length - 3;
}

/**
 * Visits the chunk's entries whose text holds `term`: the entries in both the first and the
 * last trigram's run are candidates. One whose first occurrences of the two lie `shift` apart
 * holds the term (when `shift` is not -1); any other is confirmed in the text. The runs come
 * in entry order, so the confirming `indexOf` only moves forward, and one occurrence found
 * past a candidate settles every candidate before it.
 */
function searchIndexed<E>(
  chunk: Chunk<E>,
  term: string,
  first: number,
  last: number,
  shift: number,
  visit: (entry: E, tag: number) => void,
): void {
  const { trigrams, starts, text, entries, tags } = chunk;
  const { keys, firstAt } = trigrams;
  let a = firstAtLeast(trigrams, first * MAX_CHUNK);
  const aEnd = firstAtLeast(trigrams, (first + 1) * MAX_CHUNK);
  if (a === aEnd) return;
  let b = firstAtLeast(trigrams, last * MAX_CHUNK);
  const bEnd = firstAtLeast(trigrams, (last + 1) * MAX_CHUNK);
  let found = -1;
  while (a < aEnd && b < bEnd) {
    const fromA = keys[a] & INDEX_MASK;
    const fromB = keys[b] & INDEX_MASK;
    if (fromA !== fromB) {
      if (fromA < fromB) a += 1;
      else b += 1;
      continue;
    }
    // UNKNOWN_AT stands for any position from there on, so it proves nothing on either side.
    const spelledHere =
      shift !== -1 && firstAt[a] + shift < UNKNOWN_AT && firstAt[b] === firstAt[a] + shift;
    a += 1;
    b += 1;
    if (spelledHere) {
      visit(entries[fromA], tags[fromA]);
      continue;
    }
    const start = starts[fromA];
    if (found < start) found = text.indexOf(term, start);
    if (found === -1) return;
    const end = fromA + 1 < starts.length ? starts[fromA + 1] : text.length;
    if (found < end) visit(entries[fromA], tags[fromA]);
  }
}

/** The position of the first key at least `value` (binary search within its bucket). */
function firstAtLeast({ keys, buckets }: TrigramIndex, value: number): number {
  if (value >= 2 ** 32) return keys.length;
  const bucket = value >>> BUCKET_SHIFT;
  let low = buckets[bucket];
  let high = buckets[bucket + 1];
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (keys[middle] < value) low = middle + 1;
    else high = middle;
  }
  return low;
}

/**
 * About one key in 512 closes a chunk: its last characters are "00" after one of "0" to "7"
 * (keys are UUID v7: their last characters are random hexadecimal digits).
 */
function closesChunk(id: string): boolean {
  const end = id.length;
  return (
    id.charCodeAt(end - 1) === ZERO &&
    id.charCodeAt(end - 2) === ZERO &&
    id.charCodeAt(end - 3) < EIGHT
  );
}

/** Where the chunk that starts at `first` ends: after an entry whose key closes one. */
function chunkEnd(entries: readonly Searchable[], first: number): number {
  for (let index = first; index < entries.length - 1; index += 1) {
    if (closesChunk(entries[index].id) || index - first + 1 >= MAX_CHUNK) return index + 1;
  }
  return entries.length;
}

/** Whether `kept` is still the chunk that starts at `from` in `entries`. */
function stillAChunk<E extends Searchable>(
  kept: E[],
  entries: readonly E[],
  from: number,
): boolean {
  const to = from + kept.length;
  if (to > entries.length) return false;
  for (let index = from; index < to; index += 1) {
    if (kept[index - from] !== entries[index]) return false;
  }
  // Its end held because its last entry closes a chunk, or it was full, or the entries ended.
  return (
    to === entries.length || kept.length === MAX_CHUNK || closesChunk(kept[kept.length - 1].id)
  );
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
