// Instructions repeat themselves (`npm test` in five fences, one sentence under every heading): a
// text audited once in an audit is not audited again. Its findings, kept relative to where it
// started, are replayed at each later place, and what it asked for is asked again.
import type { AskKind, Ctx } from "./context";
import type { AuditFinding, Place } from "./rules";

export type Seen = { findings: AuditFinding[]; asks: AskKind[] };

/** Runs `audit` for the text keyed `key` at `place`, or replays what it found the first time. */
export function auditOnce(ctx: Ctx, key: string, place: Place, audit: () => void): void {
  const seen = ctx.seen.get(key);
  if (seen) {
    for (const f of seen.findings) ctx.findings.push({ ...f, resource: place.resource, line: f.line + place.line });
    for (const a of seen.asks) ctx.asks.add(a);
    return;
  }
  const outer = ctx.asks;
  const own = new Set<AskKind>();
  const before = ctx.findings.length;
  ctx.asks = own;
  try {
    audit();
  } finally {
    ctx.asks = outer;
    for (const a of own) outer.add(a);
  }
  const findings = ctx.findings.slice(before).map((f) => ({ ...f, line: f.line - place.line }));
  ctx.seen.set(key, { findings, asks: [...own] });
}
