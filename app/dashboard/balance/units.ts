// Money typed by a person ("12.5") to integer micro-units and back, without floating point.
const UNITS = /^\s*(\d{1,7})(?:[.,](\d{1,6}))?\s*$/;

/** "12.5" → 12500000n; null when it is not an amount with at most six decimals. */
export function parseUnits(text: string): bigint | null {
  const m = UNITS.exec(text);
  if (!m) return null;
  return BigInt(m[1] ?? "0") * 1_000_000n + BigInt((m[2] ?? "").padEnd(6, "0"));
}

/** "1500000" → "1.50" (the same words as formatMicros on the server). */
export function unitsText(micros: string | bigint): string {
  const value = BigInt(micros);
  const neg = value < 0n;
  const abs = neg ? -value : value;
  const frac = (abs % 1_000_000n).toString().padStart(6, "0").replace(/0+$/, "").padEnd(2, "0");
  return `${neg ? "-" : ""}${abs / 1_000_000n}.${frac}`;
}
