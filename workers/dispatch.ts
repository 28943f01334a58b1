// The `dispatch` queue: timers of Run jobs and steps (TTL, lease, approval window), and a sweep
// that catches anything whose timer was lost. Every handler re-checks the database.
import { z } from "zod";
import { db } from "../lib/db";
import { onJobTtl, onLeaseExpired, DISPATCH_QUEUE, TIMER_JOBS } from "../lib/runs";
import { onStepExpire } from "../lib/steps";
import { defineJob, type QueueDefinition } from "./registry";

const SWEEP_BATCH = 200;

export async function sweepDispatch(now = new Date()) {
  const [leases, ttls, steps] = await Promise.all([
    db.runJob.findMany({
      where: { state: { in: ["placed", "running"] }, leaseExpiresAt: { lte: now } },
      select: { id: true },
      take: SWEEP_BATCH,
    }),
    db.runJob.findMany({
      where: { state: { in: ["queued", "placed", "running"] }, expiresAt: { lte: now } },
      select: { id: true },
      take: SWEEP_BATCH,
    }),
    db.step.findMany({
      where: { status: "pending_approval", expiresAt: { lte: now } },
      select: { id: true },
      take: SWEEP_BATCH,
    }),
  ]);
  for (const { id } of ttls) await onJobTtl(id, now);
  for (const { id } of leases) await onLeaseExpired(id, now);
  for (const { id } of steps) await onStepExpire(id);
  return { leases: leases.length, ttls: ttls.length, steps: steps.length };
}

const jobId = z.object({ jobId: z.string().min(1).max(64) });

export const dispatchQueueDefinition: QueueDefinition = {
  queue: DISPATCH_QUEUE,
  concurrency: 4,
  schedules: [{ name: TIMER_JOBS.sweep, everyMs: 30_000 }],
  jobs: [
    defineJob({ name: TIMER_JOBS.jobTtl, schema: jobId, handle: async ({ jobId }) => onJobTtl(jobId) }),
    defineJob({ name: TIMER_JOBS.jobLease, schema: jobId, handle: async ({ jobId }) => onLeaseExpired(jobId) }),
    defineJob({
      name: TIMER_JOBS.stepExpire,
      schema: z.object({ stepId: z.string().min(1).max(64) }),
      handle: async ({ stepId }) => onStepExpire(stepId),
    }),
    defineJob({ name: TIMER_JOBS.sweep, schema: z.object({}).passthrough(), handle: async () => sweepDispatch() }),
  ],
};
