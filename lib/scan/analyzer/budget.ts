// The analysis's work budget: every evaluation step counts against a limit proportional to the
// file's size, so no input can keep the analyzer running unbounded. Past it, the scan fails closed.

/**
 * Steps a file may take: a floor for small files plus an allowance per byte. Real code takes well
 * under one step per byte (0.4 at most over the corpus and 580 public skill files), so this is
 * some 50 times what any of them needs, and a megabyte's budget runs out within seconds.
 */
export function stepBudget(bytes: number): number {
  return 100_000 + 20 * bytes;
}

/** The longest string the evaluator folds; a longer one (doubling `a = a + a`) is too complex. */
export const MAX_FOLDED_CHARS = 1 << 20;
/** A folded string costs a step per this many characters, so re-folding big strings is bounded too. */
export const CHARS_PER_STEP = 16;

/** Where a node starts, for the finding (1 when it has no span). */
export function spanStart(n: object): number {
  const span = (n as { span?: { start?: number } }).span;
  return typeof span?.start === "number" && span.start > 0 ? span.start : 1;
}

/** Thrown from the analyzer's hot loops when a scan has used its budget. */
export class TooComplex extends Error {
  constructor(readonly pos: number) {
    super("analysis budget exceeded");
  }
}
