import { mobileKeyOf, nameBirthKeyOf } from "../../src/modules/members/member-duplicates";

describe("duplicate keys", () => {
  const born = new Date("1990-03-15T00:00:00.000Z");

  it("a name and birth date alike up to case, accents, punctuation and spacing share a key", () => {
    const keys = [
      { firstName: "María", lastName: "Santos", dateOfBirth: born },
      { firstName: "  maria ", lastName: "SANTOS.", dateOfBirth: born },
      { firstName: "Maria-", lastName: "santos", dateOfBirth: born },
    ].map(nameBirthKeyOf);
    expect(new Set(keys)).toEqual(new Set(["maria santos|1990-03-15"]));
  });

  it("another birth date or name is another key", () => {
    const maria = nameBirthKeyOf({ firstName: "Maria", lastName: "Santos", dateOfBirth: born });
    const later = new Date("1990-03-16T00:00:00.000Z");
    expect(nameBirthKeyOf({ firstName: "Maria", lastName: "Santos", dateOfBirth: later })).not.toBe(
      maria,
    );
    expect(nameBirthKeyOf({ firstName: "Mario", lastName: "Santos", dateOfBirth: born })).not.toBe(
      maria,
    );
  });

  it("a Philippine mobile has one key in its international, national and bare forms", () => {
    expect(mobileKeyOf("+63 917 123 4567")).toBe("09171234567");
    expect(mobileKeyOf("0917-123-4567")).toBe("09171234567");
    expect(mobileKeyOf("917 123 4567")).toBe("09171234567");
  });

  it("other numbers keep their digits; too few digits give no key", () => {
    expect(mobileKeyOf("(02) 8123-4567")).toBe("0281234567");
    expect(mobileKeyOf("12-34")).toBeNull();
  });
});
