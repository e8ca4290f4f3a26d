import { validate } from "class-validator";
import {
  IsInterviewerKey,
  interviewerRef,
  isInterviewerKey,
  keyFromName,
} from "../../src/modules/interviews/interviewer-key";
import { DEFAULT_INTERVIEWERS } from "../../src/modules/interviews/interviewer-defaults";

class KeyHolder {
  @IsInterviewerKey(false) key!: unknown;
}

class RefHolder {
  @IsInterviewerKey(true) interviewerId!: unknown;
}

describe("interviewer keys", () => {
  it("are lower-case words of letters and digits joined by single hyphens, never a UUID", () => {
    for (const key of ["ptr-rodel", "ptr-jose", "a", "rev-2-ana", "x".repeat(40)]) {
      expect(isInterviewerKey(key)).toBe(true);
    }
    for (const key of [
      "",
      "ptr rodel",
      "ptr--rodel",
      "-ptr",
      "ptr-",
      "ptr_rodel",
      "ptr.rodel",
      "x".repeat(41),
      "01941f29-7c00-7000-8000-000000000001",
    ]) {
      expect(isInterviewerKey(key)).toBe(false);
    }
  });

  it("name an interviewer by id or key, in any letter case; anything else names none", () => {
    expect(interviewerRef("PTR-Rodel")).toEqual({ key: "ptr-rodel" });
    expect(interviewerRef(" ptr-maria ")).toEqual({ key: "ptr-maria" });
    expect(interviewerRef("01941F29-7C00-7000-8000-000000000001")).toEqual({
      id: "01941f29-7c00-7000-8000-000000000001",
    });
    expect(interviewerRef("ptr rodel")).toBeNull();
    expect(interviewerRef("")).toBeNull();
  });

  it("are made of a name for records written before keys existed", () => {
    expect(keyFromName("Rev. Ána Reyes")).toBe("rev-ana-reyes");
    expect(keyFromName("  Officer   O'Brien-Smith ")).toBe("officer-o-brien-smith");
    expect(keyFromName("???")).toBe("interviewer");
    const long = keyFromName("Bishop ".repeat(20));
    expect(isInterviewerKey(long)).toBe(true);
    // Room is left for the suffix a taken key gets.
    expect(isInterviewerKey(`${long}-abcdef`)).toBe(true);
  });

  it("the defaults are valid keys with valid fixed ids", () => {
    for (const one of DEFAULT_INTERVIEWERS) {
      expect(interviewerRef(one.key)).toEqual({ key: one.key });
      expect(interviewerRef(one._id)).toEqual({ id: one._id });
    }
  });

  it("validate as class-validator constraints with messages that say the form", async () => {
    const key = Object.assign(new KeyHolder(), { key: "Ptr Rodel" });
    const [keyError] = await validate(key);
    expect(Object.values(keyError.constraints ?? {})).toEqual([
      expect.stringContaining("lower-case letters, digits and single hyphens"),
    ]);
    const ref = Object.assign(new RefHolder(), { interviewerId: 42 });
    const [refError] = await validate(ref);
    expect(Object.values(refError.constraints ?? {})).toEqual([
      expect.stringMatching(/^interviewerId must be an interviewer's id \(a UUID\) or key/),
    ]);
    expect(await validate(Object.assign(new RefHolder(), { interviewerId: "ptr-jose" }))).toEqual(
      [],
    );
  });
});
