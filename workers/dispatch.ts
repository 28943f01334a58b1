// The `dispatch` queue: early timers of Run jobs and steps (TTL, lease, approval window), and the
// sweep that finds every due deadline and owed submission in PostgreSQL whatever happened to
// Redis, and drops idempotency keys past their day. Handlers call lib/.
import { purgeExpiredIdempotencyKeys } from "../lib/http/idempotency";
import { JOBS } from "../lib/jobs";
import { expireDueJobs, expireDueLeases, sweepDispatch, DISPATCH_QUEUE } from "../lib/runs";
import { onStepExpire } from "../lib/steps";
import { defineJob, type QueueDefinition } from "./registry";

export const DISPATCH_SWEEP_EVERY_MS = 30_000;

export const dispatchQueueDefinition: QueueDefinition = {
  queue: DISPATCH_QUEUE,
  concurrency: 4,
  schedules: [{ name: JOBS.dispatchSweep.name, everyMs: DISPATCH_SWEEP_EVERY_MS }],
  jobs: [
    defineJob({ ...JOBS.jobsDue, handle: async () => ({ expired: await expireDueJobs() }) }),
    defineJob({ ...JOBS.leasesDue, handle: async () => ({ leases: await expireDueLeases() }) }),
    defineJob({ ...JOBS.stepExpire, handle: async ({ stepId }) => onStepExpire(stepId) }),
    defineJob({
      ...JOBS.dispatchSweep,
      handle: async () => ({ ...(await sweepDispatch()), idempotencyKeysPurged: await purgeExpiredIdempotencyKeys() }),
    }),
  ],
};
