import { parseDataKey } from "../../src/db/field-cipher";
import { uuidv7 } from "../../src/db/uuid";
import { OfficeLevel, rankOf } from "../../src/modules/offices/office-level";

describe("record ids", () => {
  it("are UUID v7: version 7, the RFC variant", () => {
    expect(uuidv7()).toMatch(
      /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/,
    );
  });

  it("sort by the time they were made", () => {
    const earlier = uuidv7(Date.UTC(2026, 0, 1));
    const later = uuidv7(Date.UTC(2026, 0, 1) + 1);
    expect(earlier < later).toBe(true);
    expect(earlier.slice(0, 13)).toBe(uuidv7(Date.UTC(2026, 0, 1)).slice(0, 13));
  });
});

describe("data keys", () => {
  const key = Buffer.alloc(32, 7);

  it("are 32 bytes in base64, URL-safe base64 or hex, spaces around ignored", () => {
    expect(parseDataKey(key.toString("base64"))).toEqual(key);
    expect(parseDataKey(` ${key.toString("base64url")}\n`)).toEqual(key);
    expect(parseDataKey(key.toString("hex"))).toEqual(key);
  });

  it("of any other length are refused", () => {
    expect(parseDataKey(Buffer.alloc(16, 7).toString("base64"))).toBeUndefined();
    expect(parseDataKey("")).toBeUndefined();
  });
});

describe("office levels", () => {
  it("rank from the top of the hierarchy down, in the order they are listed", () => {
    const levels = Object.values(OfficeLevel);
    expect(levels.map(rankOf)).toEqual(levels.map((_, index) => index));
    expect(rankOf(OfficeLevel.CHIEF_CHAPLAIN)).toBeLessThan(rankOf(OfficeLevel.BARANGAY_CHAPLAIN));
  });
});
