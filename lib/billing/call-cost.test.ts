import { describe, expect, it } from "vitest";
import { callCost, callCostWords } from "./call-cost";

describe("callCost", () => {
  it("is the wall-time cap in started seconds at each rate, held at the pool's", () => {
    const c = callCost(10_000);
    expect(c).toEqual({ own_micros: 1_000n, pool_micros: 10_000n, hold_micros: 10_000n });
    expect(callCostWords(c)).toBe("at most 0.001 on your own Link, 0.01 on the OpenVibe pool");
  });

  it("counts a started second in full", () => {
    expect(callCost(1_001)).toMatchObject({ own_micros: 200n, pool_micros: 2_000n });
    expect(callCost(30_000).hold_micros).toBe(30_000n);
  });
});
