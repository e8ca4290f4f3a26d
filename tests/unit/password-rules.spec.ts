import {
  PASSWORD_MAX_BYTES,
  PASSWORD_MIN_BYTES,
  passwordProblem,
} from "../../src/modules/auth/password-policy";

describe("password rules", () => {
  it("accepts a password with an uppercase letter, a digit and a special character", () => {
    expect(passwordProblem("Secret#123")).toBeUndefined();
    expect(passwordProblem("Ñandú#2026")).toBeUndefined();
  });

  it.each([
    ["Sh#1", "at least"],
    ["secret#123", "uppercase"],
    ["Secret#abc", "digit"],
    ["Secret1234", "special"],
  ])("refuses %j (%s)", (password, reason) => {
    expect(passwordProblem(password)).toMatch(reason);
  });

  it("counts bytes, not characters: bcrypt would cut what is past 72 bytes", () => {
    const atLimit = `A#1${"a".repeat(PASSWORD_MAX_BYTES - 3)}`;
    expect(passwordProblem(atLimit)).toBeUndefined();
    expect(passwordProblem(`${atLimit}a`)).toMatch("at most");
    // 24 characters of 3 bytes each, plus 3: 75 bytes in 27 characters.
    expect(passwordProblem(`A#1${"€".repeat(24)}`)).toMatch("at most");
    // Four 2-byte characters are 8 bytes: long enough with the others.
    expect(Buffer.byteLength("A#1ééééé")).toBeGreaterThanOrEqual(PASSWORD_MIN_BYTES);
    expect(passwordProblem("A#1ééééé")).toBeUndefined();
  });
});
