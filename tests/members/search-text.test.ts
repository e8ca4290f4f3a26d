import { randomUUID } from "node:crypto";
import { SearchText } from "../../src/modules/members/search-text";

interface Entry {
  id: string;
  name: string;
  email: string;
}

const contains = (entry: Entry, term: string) =>
  entry.name.includes(term) || entry.email.includes(term);

/** The rule applied to each entry on its own: what SearchText must always agree with. */
function oneByOne(entries: readonly Entry[], term: string): Entry[] {
  return entries.filter((entry) => contains(entry, term));
}

function viaSearchText(
  search: SearchText<Entry>,
  entries: readonly Entry[],
  version: number,
  term: string,
): Entry[] {
  const found: Entry[] = [];
  search.forEachContaining(entries, version, term, (entry) => found.push(entry));
  return found;
}

const SYLLABLES = ["san", "tos", "rey", "es", "cruz", "ba", "ti", "sta", "gar", "cia", "do"];
let seed = 7;
/** A small deterministic generator, so a failure names the same data on every run. */
function random(below: number): number {
  seed = (seed * 1103515245 + 12345) % 2 ** 31;
  return seed % below;
}

function someEntry(id: string = randomUUID()): Entry {
  const word = (parts: number) =>
    Array.from({ length: parts }, () => SYLLABLES[random(SYLLABLES.length)]).join("");
  const name = `${word(2)} ${word(3)}`;
  return { id, name, email: `${name.replace(" ", ".")}@example.org` };
}

/** Ids ending in "000" close a chunk: force some, so chunks of several sizes occur. */
function idClosingChunk(): string {
  return `${randomUUID().slice(0, -3)}000`;
}

/** The chunks a search holds (internal: how much a change rebuilds). */
function chunksOf(search: SearchText<Entry>): { entries: Entry[] }[] {
  return (search as unknown as { chunks: { entries: Entry[] }[] }).chunks;
}

const TERMS = ["san", "a", "tos rey", "cruz.", "@example", "zzz", "es\u0000", "\u0000", "g"];

describe("SearchText", () => {
  it("finds exactly the entries the rule finds, in order, as the entries change", () => {
    const entries = Array.from({ length: 3000 }, (_, index) =>
      someEntry(index % 97 === 0 ? idClosingChunk() : undefined),
    );
    const search = new SearchText<Entry>((entry) => [entry.name, entry.email], contains);
    let version = 1;
    const check = () => {
      for (const term of TERMS) {
        expect(viaSearchText(search, entries, version, term)).toEqual(oneByOne(entries, term));
      }
    };
    check();
    // Added at the front (newest first), removed, replaced by a changed copy, added at the end.
    for (let round = 0; round < 40; round += 1) {
      version += 1;
      const change = round % 4;
      if (change === 0) entries.unshift(someEntry(round % 8 === 0 ? idClosingChunk() : undefined));
      if (change === 1) entries.splice(random(entries.length), 1);
      if (change === 2) {
        const at = random(entries.length);
        entries[at] = { ...entries[at], name: `${entries[at].name} cruz` };
      }
      if (change === 3) entries.push(someEntry());
      check();
    }
  });

  it("cuts the same chunks as a fresh build after a change, and rebuilds only the changed one", () => {
    const entries = Array.from({ length: 3000 }, (_, index) =>
      someEntry(index % 83 === 0 ? idClosingChunk() : undefined),
    );
    const search = new SearchText<Entry>((entry) => [entry.name, entry.email], contains);
    let version = 1;
    viaSearchText(search, entries, version, "san");
    for (let round = 0; round < 24; round += 1) {
      const before = new Set(chunksOf(search));
      const change = round % 4;
      if (change === 0) entries.unshift(someEntry(round % 8 === 0 ? idClosingChunk() : undefined));
      if (change === 1) entries.splice(random(entries.length), 1);
      if (change === 2) entries.splice(random(entries.length), 0, someEntry(idClosingChunk()));
      // At the end: the last chunk ended with the entries, not at a closing key.
      if (change === 3) entries.push(someEntry());
      version += 1;
      viaSearchText(search, entries, version, "san");
      const fresh = new SearchText<Entry>((entry) => [entry.name, entry.email], contains);
      viaSearchText(fresh, entries, 1, "san");
      const lengths = (of: SearchText<Entry>) => chunksOf(of).map((chunk) => chunk.entries.length);
      expect(lengths(search)).toEqual(lengths(fresh));
      const rebuilt = chunksOf(search).filter((chunk) => !before.has(chunk));
      expect(rebuilt.length).toBeGreaterThanOrEqual(1);
      expect(rebuilt.length).toBeLessThanOrEqual(2);
    }
  });

  it("agrees with the rule for terms cut from the entries' own texts, of every length", () => {
    const entries = Array.from({ length: 2000 }, (_, index) =>
      someEntry(index % 61 === 0 ? idClosingChunk() : undefined),
    );
    entries[5] = { ...entries[5], name: "peñaflor dasmariñas", email: "ñ.ü@example.org" };
    const search = new SearchText<Entry>((entry) => [entry.name, entry.email], contains);
    const terms = ["ñas", "peñ", "aflor d", "ñ.ü@", "ü@e"];
    for (let index = 0; index < 300; index += 1) {
      const entry = entries[random(entries.length)];
      const text = random(2) === 0 ? entry.name : entry.email;
      const from = random(text.length);
      terms.push(text.slice(from, from + 1 + random(10)));
    }
    for (const term of terms) {
      expect(viaSearchText(search, entries, 1, term)).toEqual(oneByOne(entries, term));
    }
  });

  it("needs a term's characters in a row, not just its first and last three somewhere", () => {
    const entries: Entry[] = [
      { id: randomUUID(), name: "san ant", email: "ant@san.org" },
      { id: randomUUID(), name: "ansan", email: "sant@x.org" },
      { id: randomUUID(), name: "santos", email: "s@x.org" },
    ];
    const search = new SearchText<Entry>((entry) => [entry.name, entry.email], contains);
    expect(viaSearchText(search, entries, 1, "sant")).toEqual([entries[1], entries[2]]);
    expect(viaSearchText(search, entries, 1, "santo")).toEqual([entries[2]]);
    expect(viaSearchText(search, entries, 1, "antsan")).toEqual([]);
  });

  it("finds a term whose first and last three letters first occur apart, and only then", () => {
    const entry = (name: string, email = "x@y.org"): Entry => ({ id: randomUUID(), name, email });
    const entries = [
      entry("amit smith"), // "mit" first occurs before "smi": found in the text
      entry("smi mit"), // both trigrams, never in a row
      entry("smit", "smit@x.org"), // in a row, twice
      entry("mitsmi smit"), // in a row only at the second occurrence of each
    ];
    const search = new SearchText<Entry>((one) => [one.name, one.email], contains);
    expect(viaSearchText(search, entries, 1, "smit")).toEqual([entries[0], entries[2], entries[3]]);
    expect(viaSearchText(search, entries, 1, "smith")).toEqual([entries[0]]);
    expect(viaSearchText(search, entries, 1, "mit")).toEqual(entries);
  });

  it("does not take a far-off occurrence for one right after the term's start", () => {
    const filler = (length: number) => "q".repeat(length);
    // "abc" first at 252; "def" first at 300, which the index records only as "255 or more".
    const far: Entry = { id: randomUUID(), name: `${filler(252)}abc${filler(45)}def`, email: "" };
    const near: Entry = { id: randomUUID(), name: `${filler(260)}abcdef`, email: "" };
    const search = new SearchText<Entry>((one) => [one.name, one.email], contains);
    expect(viaSearchText(search, [far, near], 1, "abcdef")).toEqual([near]);
    expect(viaSearchText(search, [far, near], 1, "cdef")).toEqual([near]);
  });

  it("agrees with the rule for characters outside the usual alphabets", () => {
    // Greek, Cyrillic and CJK letters share trigram codes; terms holding them are confirmed.
    const alphabet = ["πα", "πο", "λο", "ид", "ов", "王", "李", "ab", "ba", "ñ", " ", ".", "@"];
    const word = () =>
      Array.from({ length: 2 + random(6) }, () => alphabet[random(alphabet.length)]).join("");
    const entries: Entry[] = Array.from({ length: 1500 }, (_, index) => ({
      id: index % 71 === 0 ? idClosingChunk() : randomUUID(),
      name: `${word()} ${word()}`,
      email: `${word()}@${word()}`,
    }));
    const search = new SearchText<Entry>((one) => [one.name, one.email], contains);
    for (let round = 0; round < 300; round += 1) {
      const one = entries[random(entries.length)];
      const text = random(2) === 0 ? one.name : one.email;
      const from = random(text.length);
      const term = text.slice(from, from + 3 + random(6));
      expect(viaSearchText(search, entries, 1, term)).toEqual(oneByOne(entries, term));
    }
  });

  it("keeps what it built while the version stays the same", () => {
    const entries = [someEntry(), someEntry()];
    entries[0].name = "ana santos";
    const search = new SearchText<Entry>((entry) => [entry.name, entry.email], contains);
    expect(viaSearchText(search, entries, 1, "santos")).toEqual([entries[0]]);
    // The caller promises a new version with every change; without one, the old text stands.
    entries[1] = { ...entries[1], name: "ben santos" };
    expect(viaSearchText(search, entries, 1, "santos")).toEqual([entries[0]]);
    expect(viaSearchText(search, entries, 2, "santos")).toEqual([entries[0], entries[1]]);
  });

  it("never matches across two texts of one entry or two entries", () => {
    const entries: Entry[] = [
      { id: randomUUID(), name: "ana", email: "bel@x.org" },
      { id: randomUUID(), name: "org", email: "cruz@x.org" },
    ];
    const search = new SearchText<Entry>((entry) => [entry.name, entry.email], contains);
    expect(viaSearchText(search, entries, 1, "anabel")).toEqual([]);
    expect(viaSearchText(search, entries, 1, "ana\u0000bel")).toEqual([]);
    expect(viaSearchText(search, entries, 1, "x.orgorg")).toEqual([]);
    expect(viaSearchText(search, entries, 1, "org")).toEqual(entries);
  });

  it("still finds a text holding the separator after a match across two texts", () => {
    const entries: Entry[] = [
      { id: randomUUID(), name: "xa", email: "b@x.org" },
      { id: randomUUID(), name: "a\u0000b", email: "c@x.org" },
    ];
    const search = new SearchText<Entry>((entry) => [entry.name, entry.email], contains);
    expect(viaSearchText(search, entries, 1, "a\u0000b")).toEqual([entries[1]]);
  });

  it("hands each entry its tag, searched or listed, as the entries change", () => {
    type Tagged = Entry & { group: number };
    const tagged = (id?: string): Tagged => ({ ...someEntry(id), group: random(200) });
    const entries = Array.from({ length: 1500 }, (_, index) =>
      tagged(index % 89 === 0 ? idClosingChunk() : undefined),
    );
    const search = new SearchText<Tagged>(
      (entry) => [entry.name, entry.email],
      contains,
      (entry) => entry.group,
    );
    const withGroups = (list: readonly Tagged[]) => list.map((entry) => [entry.id, entry.group]);
    let version = 1;
    const check = () => {
      const listed: [string, number][] = [];
      search.forEach(entries, version, (entry, tag) => listed.push([entry.id, tag]));
      expect(listed).toEqual(withGroups(entries));
      const found: [string, number][] = [];
      search.forEachContaining(entries, version, "san", (entry, tag) =>
        found.push([entry.id, tag]),
      );
      expect(found).toEqual(withGroups(entries.filter((entry) => contains(entry, "san"))));
    };
    check();
    for (let round = 0; round < 12; round += 1) {
      version += 1;
      const at = random(entries.length);
      // A changed tag alone (same texts) and a new entry at the front.
      if (round % 2 === 0) entries[at] = { ...entries[at], group: (entries[at].group + 1) % 200 };
      else entries.unshift(tagged());
      check();
    }
  });

  it("answers an empty list", () => {
    const search = new SearchText<Entry>((entry) => [entry.name, entry.email], contains);
    expect(viaSearchText(search, [], 1, "a")).toEqual([]);
  });
});
