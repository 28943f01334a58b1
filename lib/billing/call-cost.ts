// The most one call of a tool can cost, shown before anyone consents (the install page, the
// approval card): its `wall_ms` cap at each placement's rate, and what a run holds while it runs
// (the dearer placement's figure, so the balance never goes below zero).
import { chargeFor, formatMicros, worstCaseCost } from "./rates";

export type CallCost = { own_micros: bigint; pool_micros: bigint; hold_micros: bigint };

export function callCost(wallMsCap: number): CallCost {
  return {
    own_micros: chargeFor(wallMsCap, "own"),
    pool_micros: chargeFor(wallMsCap, "pool"),
    hold_micros: worstCaseCost(wallMsCap),
  };
}

/** "at most 0.001 on your own Link, 0.01 on the OpenVibe pool" */
export function callCostWords(cost: Pick<CallCost, "own_micros" | "pool_micros">): string {
  return `at most ${formatMicros(cost.own_micros)} on your own Link, ${formatMicros(cost.pool_micros)} on the OpenVibe pool`;
}
