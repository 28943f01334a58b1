// The per-run egress record: every connection a job's tool tried through the Link's egress proxy,
// allowed or refused (with the refusal's code), with bytes each way and how long it lasted. It is
// part of the signed run statement, so its shape is the protocol's, checked on both ends.
import { z } from "zod";
import { EGRESS_HOST, MAX_EGRESS_ENTRIES } from "./egress-hosts";

export * from "./egress-hosts";

export const egressEntrySchema = z.strictObject({
  host: z.string().max(255).regex(EGRESS_HOST),
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
