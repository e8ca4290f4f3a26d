import { isActive, runningKey } from "../../src/modules/offices/office-holder.model";
import { runningSlots } from "../../src/modules/offices/office-slots";
import type { OfficeRecord } from "../../src/modules/offices/office.model";

const now = new Date("2026-06-01T00:00:00.000Z");
const office = (activeHolders?: number) => ({ activeHolders }) as OfficeRecord;

describe("slot counting", () => {
  it("a term counts until it is ended or its end date comes", () => {
    expect(isActive({ endedAt: null, endDate: null }, now)).toBe(true);
    expect(isActive({ endedAt: null, endDate: new Date("2026-06-02") }, now)).toBe(true);
    expect(isActive({ endedAt: null, endDate: now }, now)).toBe(false);
    expect(isActive({ endedAt: null, endDate: new Date("2026-05-31") }, now)).toBe(false);
    expect(isActive({ endedAt: new Date("2026-05-01"), endDate: null }, now)).toBe(false);
  });

  it("a member holds an office once at a time: one running key per member and office", () => {
    expect(runningKey("office-1", "member-1")).toBe(runningKey("office-1", "member-1"));
    expect(runningKey("office-1", "member-1")).not.toBe(runningKey("office-1", "member-2"));
    expect(runningKey("office-1", "member-1")).not.toBe(runningKey("office-2", "member-1"));
  });

  it("a reader sees the stored count less the lapsed terms it still holds, never below 0", () => {
    expect(runningSlots(office(3), 1)).toBe(2);
    expect(runningSlots(office(1), 0)).toBe(1);
    expect(runningSlots(office(1), 2)).toBe(0);
    expect(runningSlots(office(undefined), 0)).toBe(0);
  });
});
