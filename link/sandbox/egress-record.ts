// The per-run egress record kept by the egress proxy: one attempt per connection or request the
// tool made, refused ones included, with the address the proxy checked, bytes each way and how
// long it lasted. Read as the protocol's EgressRecord (lib/protocol/egress.ts): identical attempts
// are folded into one entry with a count, and past MAX_EGRESS_ENTRIES distinct entries the rest are
// counted in one overflow entry, so a tool can neither flood the record nor slip an attempt past it.
import type { EgressEntry, EgressRecord } from "../../lib/protocol/egress";
import { MAX_EGRESS_ENTRIES, OVERFLOW_HOST, recordedHost } from "../../lib/protocol/egress-hosts";

export type Attempt = {
  host: string;
  port: number;
  address: string | null;
  verdict: "allowed" | "denied";
  reason: string | null;
  bytesUp: number;
  bytesDown: number;
  started: number;
  ended: number | null;
};

export class EgressRecorder {
  private readonly attempts: Attempt[] = [];

  /** A new attempt, allowed until it is denied. */
  start(host: string, port: number): Attempt {
    const attempt: Attempt = {
      host: recordedHost(host),
      port: Number.isInteger(port) && port >= 0 && port <= 65_535 ? port : 0,
      address: null,
      verdict: "allowed",
      reason: null,
      bytesUp: 0,
      bytesDown: 0,
      started: performance.now(),
      ended: null,
    };
    this.attempts.push(attempt);
    return attempt;
  }

  deny(attempt: Attempt, reason: string): void {
    attempt.verdict = "denied";
    attempt.reason = reason;
    this.end(attempt);
  }

  /** An allowed connection that failed upstream (refused, timed out) keeps its verdict and says why. */
  fail(attempt: Attempt, reason: string): void {
    attempt.reason ??= reason;
    this.end(attempt);
  }

  end(attempt: Attempt): void {
    attempt.ended ??= performance.now();
  }

  /** The record as it stands now; a connection still open counts up to now. */
  record(now = performance.now()): EgressRecord {
    const entries = new Map<string, EgressEntry>();
    for (const a of this.attempts) {
      let key = JSON.stringify([a.host, a.port, a.address, a.verdict, a.reason]);
      let entry = entries.get(key);
      if (!entry && entries.size >= MAX_EGRESS_ENTRIES) {
        key = "overflow";
        entry = entries.get(key);
        if (!entry) {
          entry = {
            host: OVERFLOW_HOST,
            port: 0,
            address: null,
            verdict: a.verdict,
            reason: "link.egress.record_full",
            count: 0,
            bytes_up: 0,
            bytes_down: 0,
            duration_ms: 0,
          };
          entries.set(key, entry);
        }
        // One denied attempt among the overflow makes the whole overflow entry read as denied.
        if (a.verdict === "denied") entry.verdict = "denied";
      }
      if (!entry) {
        entry = {
          host: a.host,
          port: a.port,
          address: a.address,
          verdict: a.verdict,
          reason: a.reason,
          count: 0,
          bytes_up: 0,
          bytes_down: 0,
          duration_ms: 0,
        };
        entries.set(key, entry);
      }
      entry.count = Math.min(entry.count + 1, 1_000_000);
      entry.bytes_up += a.bytesUp;
      entry.bytes_down += a.bytesDown;
      entry.duration_ms = Math.min(entry.duration_ms + Math.round((a.ended ?? now) - a.started), 86_400_000);
    }
    return [...entries.values()];
  }
}
