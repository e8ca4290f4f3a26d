/**
 * Repositories answer a write a unique index refused as DUPLICATE (src/db/errors.ts), so
 * services decide what it means without knowing the driver's error; any other error passes.
 */
import { DUPLICATE, unlessDuplicate } from "../../src/db/errors";

describe("unlessDuplicate", () => {
  it("answers the write's result when it succeeds", async () => {
    await expect(unlessDuplicate(Promise.resolve({ _id: "a" }))).resolves.toEqual({ _id: "a" });
  });

  it("answers DUPLICATE for the driver's duplicate-key error", async () => {
    const refused = Object.assign(new Error("E11000 duplicate key error"), { code: 11000 });
    await expect(unlessDuplicate(Promise.reject(refused))).resolves.toBe(DUPLICATE);
  });

  it("lets every other error through", async () => {
    const other = Object.assign(new Error("not primary"), { code: 10107 });
    await expect(unlessDuplicate(Promise.reject(other))).rejects.toBe(other);
  });
});
