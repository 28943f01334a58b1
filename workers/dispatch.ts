// The `dispatch` queue: early timers of Run jobs and steps (TTL, lease, approval window), and the
// sweep that finds every due deadline and owed submission in PostgreSQL whatever happened to
// Redis, and drops idempotency keys past their day. Handlers call lib/.
import { z } from "zod";
import { purgeExpiredIdempotencyKeys } from "../lib/http/idempotency";
import { onJobTtl, onLeaseExpired, sweepDispatch, DISPATCH_QUEUE, TIMER_JOBS } from "../lib/runs";
import { onStepExpire } from "../lib/steps";
import { defineJob, type QueueDefinition } from "./registry";

const jobId = z.object({ jobId: z.string().min(1).max(64) });

export const DISPATCH_SWEEP_EVERY_MS = 30_000;

export const dispatchQueueDefinition: QueueDefinition = {
  queue: DISPATCH_QUEUE,
  concurrency: 4,
  schedules: [{ name: TIMER_JOBS.sweep, everyMs: DISPATCH_SWEEP_EVERY_MS }],
  jobs: [
    defineJob({ name: TIMER_JOBS.jobTtl, schema: jobId, handle: async ({ jobId }) => onJobTtl(jobId) }),
    defineJob({ name: TIMER_JOBS.jobLease, schema: jobId, handle: async ({ jobId }) => onLeaseExpired(jobId) }),
    defineJob({
      name: TIMER_JOBS.stepExpire,
      schema: z.object({ stepId: z.string().min(1).max(64) }),
      handle: async ({ stepId }) => onStepExpire(stepId),
    }),
    defineJob({
      name: TIMER_JOBS.sweep,
      schema: z.object({}).passthrough(),
      handle: async () => ({ ...(await sweepDispatch()), idempotencyKeysPurged: await purgeExpiredIdempotencyKeys() }),
    }),
  ],
};
