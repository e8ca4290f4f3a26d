import { ValidationError } from "../../src/errors/app-errors";
import { toErrorResponse } from "../../src/errors/error-mapper";

describe("a VALIDATION_ERROR's message", () => {
  it("is the one problem's own text, so a client showing `message` shows what is wrong", () => {
    const one = new ValidationError([{ path: "day", message: "day must be a weekday" }]);
    expect(toErrorResponse(one, { exposeDetail: false })).toEqual({
      status: 400,
      body: {
        code: "VALIDATION_ERROR",
        message: "day must be a weekday",
        errors: [{ path: "day", message: "day must be a weekday" }],
      },
      headers: undefined,
    });
    expect(ValidationError.field("key", "key is taken").message).toBe("key is taken");
  });

  it("sums up several problems and leaves them to `errors`", () => {
    const two = new ValidationError([
      { path: "timeSlot", message: "timeSlot must be one of …" },
      { path: "zoomLink", message: "zoomLink must be an http(s) URL" },
    ]);
    expect(two.message).toBe("The request has invalid fields");
    expect(two.errors).toHaveLength(2);
  });
});
