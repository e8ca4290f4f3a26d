import { csvCell } from "../../src/modules/members/member-csv";

describe("CSV cells of the member export", () => {
  it("writes plain text, numbers and dates as they are, null as nothing", () => {
    expect(csvCell("Maria")).toBe("Maria");
    expect(csvCell(42)).toBe("42");
    expect(csvCell(new Date("2026-01-02T03:04:05.000Z"))).toBe("2026-01-02T03:04:05.000Z");
    expect(csvCell(null)).toBe("");
    expect(csvCell(undefined)).toBe("");
  });

  it("quotes a cell with a comma, a quote or a line break, doubling the quotes (RFC 4180)", () => {
    expect(csvCell("Santos, Maria")).toBe('"Santos, Maria"');
    expect(csvCell('The "Rev."')).toBe('"The ""Rev."""');
    expect(csvCell("line\nbreak")).toBe('"line\nbreak"');
  });

  it.each(["=HYPERLINK(1)", "+63 917", "-1", "@SUM(A1)", "\tTab"])(
    "defuses %j so a spreadsheet reads text, not a formula",
    (text) => {
      expect(csvCell(text).replace(/^"/, "").startsWith(`'`)).toBe(true);
    },
  );
});
