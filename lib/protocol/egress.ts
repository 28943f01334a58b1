// The per-run egress record: every connection a job's tool tried through the Link's egress proxy,
// allowed or refused (with the refusal's code), with bytes each way and how long it lasted. It is
// part of the signed run statement, so its shape is the protocol's, checked on both ends.
import { z } from "zod";

/** Most distinct entries one run records; further attempts fold into the last entry (never dropped). */
export const MAX_EGRESS_ENTRIES = 128;
/** What a host becomes in the record when the tool asked for something that is not a host name. */
export const UNREADABLE_HOST = "(unreadable)";
/** The entry that counts attempts past MAX_EGRESS_ENTRIES. */
export const OVERFLOW_HOST = "(more hosts)";

const HOST = /^(\[[0-9a-fA-F:.]{2,45}\]|[A-Za-z0-9._-]{1,253}|\(unreadable\)|\(more hosts\))$/;

export const egressEntrySchema = z.strictObject({
  host: z.string().max(255).regex(HOST),
  port: z.number().int().min(0).max(65_535),
  /** The one address the proxy checked and connected to; null when it refused before resolving. */
  address: z.string().max(64).nullable(),
  verdict: z.enum(["allowed", "denied"]),
  /** Why it was denied (a `link.egress.*` code), or why an allowed connection failed; else null. */
  reason: z
    .string()
    .max(64)
    .regex(/^[a-z][a-z0-9_.]*$/)
    .nullable(),
  /** How many attempts this entry stands for (the same host, port, address, verdict and reason). */
  count: z.number().int().min(1).max(1_000_000),
  bytes_up: z.number().int().min(0).max(Number.MAX_SAFE_INTEGER),
  bytes_down: z.number().int().min(0).max(Number.MAX_SAFE_INTEGER),
  duration_ms: z.number().int().min(0).max(86_400_000),
});
export type EgressEntry = z.infer<typeof egressEntrySchema>;

export const egressRecordSchema = z.array(egressEntrySchema).max(MAX_EGRESS_ENTRIES + 1);
export type EgressRecord = z.infer<typeof egressRecordSchema>;

/** A host as the record keeps it: lowercased, without a trailing dot, or UNREADABLE_HOST. */
export function recordedHost(host: string): string {
  const name = host.toLowerCase().replace(/\.$/, "");
  return HOST.test(name) && name.length <= 253 ? name : UNREADABLE_HOST;
}

/** "2.1 KB" for a byte count, as the run page and the CLI say it. */
export function formatBytes(n: number): string {
  if (n < 1000) return `${n} B`;
  if (n < 1_000_000) return `${(n / 1000).toFixed(1)} KB`;
  return `${(n / 1_000_000).toFixed(1)} MB`;
}
