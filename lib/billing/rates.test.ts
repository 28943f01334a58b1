import { describe, expect, it } from "vitest";
import { billedSeconds, chargeFor, formatMicros, worstCaseCost } from "./rates";

describe("rates", () => {
  it("charges every started second, at least one", () => {
    expect(billedSeconds(0)).toBe(1n);
    expect(billedSeconds(1000)).toBe(1n);
    expect(billedSeconds(1001)).toBe(2n);
    expect(chargeFor(2500, "own")).toBe(300n);
    expect(chargeFor(2500, "pool")).toBe(3000n);
  });
  it("prices the worst case at the dearer placement", () => {
    expect(worstCaseCost(10_000)).toBe(10_000n);
  });
  it("formats micro-units", () => {
    expect(formatMicros(1_234_500n)).toBe("1.2345");
    expect(formatMicros(5_000_000n)).toBe("5.00");
    expect(formatMicros(300n)).toBe("0.0003");
    expect(formatMicros(-1_500_000n)).toBe("-1.50");
  });
});
