import { searchableText, searchTerm } from "../../src/db/search-text";

describe("search text", () => {
  it("joins the parts lower-cased and NFKC-normalised, leaving out empty ones", () => {
    const text = searchableText("Chief ＣＨＡＰＬＡＩＮ", null, undefined, "", "Of Manila");
    expect(text.split("\u001f")).toEqual(["chief chaplain", "of manila"]);
  });

  it("a search is normalised the same way, so it finds what was stored", () => {
    const stored = searchableText("Chief Chaplain");
    const term = searchTerm("  ＣＨＩＥＦ ");
    expect(term).toBe("chief");
    expect(stored.includes(term)).toBe(true);
  });

  it("control characters never match across two parts", () => {
    const stored = searchableText("alpha", "beta");
    expect(searchTerm("alpha\u001fbeta")).toBe("alphabeta");
    expect(stored.includes(searchTerm("alpha\u001fbeta"))).toBe(false);
    expect(searchTerm("   ")).toBe("");
    expect(searchTerm(null)).toBe("");
  });
});
