// The code table is closed: a code that is not in it does not compile (the @ts-expect-error lines
// fail `tsc` the day they stop being errors), and every code has one status, contract codes included.
import { describe, expect, it } from "vitest";
import { CONTRACT_ERROR_CODES } from "../contracts";
import { AppError, ERROR_STATUS, isErrorCode, statusFor, type ErrorCode } from ".";

describe("the error code table", () => {
  it("refuses, at compile time, a code it does not list", () => {
    // @ts-expect-error a typo of run.job.inputs_invalid is not an ErrorCode
    const typo = new AppError("run.job.input_invalid", "typo");
    expect(isErrorCode(typo.code)).toBe(false);
    // @ts-expect-error a plain string is not an ErrorCode either
    const anyString: ErrorCode = String("run.job.inputs_invalid");
    expect(isErrorCode(anyString)).toBe(true);
    expect(new AppError("run.job.inputs_invalid", "bad inputs").status).toBe(422);
  });

  it("lists each contract code once, at 422, from lib/contracts", () => {
    for (const code of CONTRACT_ERROR_CODES) expect(statusFor(code), code).toBe(422);
    expect(new Set(CONTRACT_ERROR_CODES).size).toBe(CONTRACT_ERROR_CODES.length);
  });

  it("has dotted codes and real HTTP statuses", () => {
    for (const [code, status] of Object.entries(ERROR_STATUS)) {
      expect(code).toMatch(/^[a-z][a-z0-9_]*(\.[a-z][a-z0-9_]*)*$/);
      expect(status >= 400 && status <= 599, code).toBe(true);
    }
  });
});
