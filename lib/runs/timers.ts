// Early wake-ups of dispatch on BullMQ: a job's TTL, a placed/running job's lease, a pending step's
// approval window. Every deadline is a column in PostgreSQL and the sweep finds it whatever
// happens to Redis; a timer only gets there sooner. Each re-checks the database, so one that fires
// twice, late, or for something already finished changes nothing.
import "server-only";
import { Queue } from "bullmq";
import { addJob, JOBS, QUEUES } from "../jobs";
import { queueConnection, withinRedisDeadline } from "../redis";

export const DISPATCH_QUEUE = QUEUES.dispatch;
/** The dispatch queue's jobs (lib/jobs): three timers and the sweep. */
const TIMERS = { jobsDue: JOBS.jobsDue, leasesDue: JOBS.leasesDue, stepExpire: JOBS.stepExpire } as const;
export const TIMER_JOBS = {
  jobsDue: TIMERS.jobsDue.name,
  leasesDue: TIMERS.leasesDue.name,
  stepExpire: TIMERS.stepExpire.name,
  sweep: JOBS.dispatchSweep.name,
} as const;
export type TimerName = (typeof TIMERS)[keyof typeof TIMERS]["name"];
const BY_NAME = new Map(Object.values(TIMERS).map((timer) => [timer.name, timer]));

const holder = globalThis as unknown as { openvibeDispatchQueue?: Queue };

export function dispatchQueue(): Queue {
  if (holder.openvibeDispatchQueue) return holder.openvibeDispatchQueue;
  holder.openvibeDispatchQueue = new Queue(DISPATCH_QUEUE, {
    ...queueConnection(),
    defaultJobOptions: {
      attempts: 5,
      backoff: { type: "exponential", delay: 500 },
      removeOnComplete: { count: 2_000 },
      removeOnFail: { count: 2_000 },
    },
  });
  // Connection errors are logged by lib/redis, throttled; BullMQ would print each one.
  holder.openvibeDispatchQueue.on("error", () => undefined);
  return holder.openvibeDispatchQueue;
}

/** `data` is parsed with the timer's own schema (lib/jobs) before it is added. */
export async function scheduleAt(name: TimerName, data: Record<string, string | number>, at: Date, jobId: string) {
  const timer = BY_NAME.get(name)!;
  await withinRedisDeadline(
    addJob(dispatchQueue(), timer, timer.schema.parse(data), { delay: Math.max(0, at.getTime() - Date.now()), jobId }),
    "the dispatch queue",
  );
}

/** Shared timers this process added, by BullMQ job id, until they are due. */
const added = new Map<string, number>();

/**
 * scheduleAt for a timer many transitions share (one id for all of them): added once by this
 * process, and again only if that add failed. Other processes' adds of the same id are no-ops.
 */
export async function scheduleShared(name: TimerName, data: Record<string, string | number>, at: Date, jobId: string) {
  if (added.has(jobId)) return;
  if (added.size > 512) for (const [id, due] of added) if (due < Date.now()) added.delete(id);
  added.set(jobId, at.getTime());
  try {
    await scheduleAt(name, data, at, jobId);
  } catch (err) {
    added.delete(jobId);
    throw err;
  }
}
