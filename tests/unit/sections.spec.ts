import { ValidationError } from "../../src/errors/app-errors";
import { SectionType } from "../../src/modules/sections/section.enums";
import type { SectionInput } from "../../src/modules/sections/section.input";
import type { SectionRecord } from "../../src/modules/sections/section.model";
import { newSections, replaceSections } from "../../src/modules/sections/section.replace";

const TITLED = { titleRequired: true };
const UNTITLED = { titleRequired: false };

const stored = (id: string, title: string): SectionRecord => ({
  _id: id,
  title,
  type: SectionType.list,
  items: [{ content: "old" }],
});
const input = (fields: Partial<SectionInput>): SectionInput => ({
  type: SectionType.list,
  items: [],
  ...fields,
});

function validationPaths(run: () => unknown): string[] {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(ValidationError);
    return (error as ValidationError).errors.map((e) => e.path);
  }
  throw new Error("expected a ValidationError");
}

describe("section replacement", () => {
  const existing = [stored("a", "Duties"), stored("b", "History")];

  it("keeps the id of a section given again, adds one without an id, drops the ones left out", () => {
    const result = replaceSections(
      existing,
      [input({ id: "b", title: " Renamed " }), input({ title: "New" })],
      TITLED,
    );
    expect(result).toHaveLength(2);
    expect(result[0]).toEqual({ _id: "b", title: "Renamed", type: "list", items: [] });
    expect(result[1]._id).not.toMatch(/^(a|b)$/);
    expect(result.map((section) => section._id)).not.toContain("a");
  });

  it("an empty list removes every section", () => {
    expect(replaceSections(existing, [], TITLED)).toEqual([]);
  });

  it("refuses an id it never issued, and one given twice, on their paths", () => {
    expect(
      validationPaths(() =>
        replaceSections(
          existing,
          [
            input({ id: "zzz", title: "x" }),
            input({ id: "a", title: "y" }),
            input({ id: "a", title: "z" }),
          ],
          TITLED,
        ),
      ),
    ).toEqual(["sections.0.id", "sections.2.id"]);
  });

  it("requires a title where the rules say so, and only there", () => {
    expect(validationPaths(() => replaceSections([], [input({})], TITLED))).toEqual([
      "sections.0.title",
    ]);
    expect(replaceSections([], [input({})], UNTITLED)[0].title).toBeNull();
  });

  it("new sections never take a client's id", () => {
    const [created] = newSections([input({ id: "a", title: "Mine" })], TITLED);
    expect(created._id).not.toBe("a");
    expect(created.title).toBe("Mine");
  });
});
