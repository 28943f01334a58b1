// Run's per-second metering rates, in integer micro-units (1 unit = 1_000_000 micro-units).
// A started wall-clock second is charged in full. A person's own Link costs less than the pool.

export const MICROS_PER_UNIT = 1_000_000n;

export const RATE_PER_SECOND_MICROS = {
  own: 100n, // 0.0001 per second on the person's own machine
  pool: 1_000n, // 0.001 per second on a shared pool machine
} as const;

export type Placement = keyof typeof RATE_PER_SECOND_MICROS;

/** Started seconds of a wall time, at least one. */
export function billedSeconds(wallMs: number): bigint {
  return BigInt(Math.max(1, Math.ceil(wallMs / 1000)));
}

export function chargeFor(wallMs: number, placement: Placement): bigint {
  return billedSeconds(wallMs) * RATE_PER_SECOND_MICROS[placement];
}

/** The most one run can cost: its wall-time cap on the dearer placement. */
export function worstCaseCost(wallMsCap: number): bigint {
  return chargeFor(wallMsCap, "pool");
}

/** 1234500n → "1.2345" (trailing zeros trimmed, at least two decimals). */
export function formatMicros(micros: bigint): string {
  const negative = micros < 0n;
  const abs = negative ? -micros : micros;
  const whole = abs / MICROS_PER_UNIT;
  const frac = (abs % MICROS_PER_UNIT).toString().padStart(6, "0").replace(/0+$/, "").padEnd(2, "0");
  return `${negative ? "-" : ""}${whole}.${frac}`;
}
