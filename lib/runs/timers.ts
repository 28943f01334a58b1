// Early wake-ups of dispatch on BullMQ: a job's TTL, a placed/running job's lease, a pending step's
// approval window. Every deadline is a column in PostgreSQL and the sweep finds it whatever
// happens to Redis; a timer only gets there sooner. Each re-checks the database, so one that fires
// twice, late, or for something already finished changes nothing.
import "server-only";
import { Queue } from "bullmq";
import { queueConnection, withinRedisDeadline } from "../redis";

export const DISPATCH_QUEUE = "dispatch";
export const TIMER_JOBS = {
  jobTtl: "job.ttl",
  jobLease: "job.lease",
  stepExpire: "step.expire",
  sweep: "dispatch.sweep",
} as const;
export type TimerName = (typeof TIMER_JOBS)[keyof typeof TIMER_JOBS];

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

export async function scheduleAt(name: TimerName, data: Record<string, string>, at: Date, jobId: string) {
  await withinRedisDeadline(
    dispatchQueue().add(name, data, { delay: Math.max(0, at.getTime() - Date.now()), jobId }),
    "the dispatch queue",
  );
}
