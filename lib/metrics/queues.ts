// Depth and lag of every BullMQ queue, read through the probe Redis client: how many jobs wait in
// each state, and how long the oldest job that is due has been waiting (no worker taking jobs
// shows here first). Queue names come from the modules that own the queues.
import "server-only";
import { Queue, type Job } from "bullmq";
import { bullPrefix } from "../redis";
import { SCAN_QUEUE } from "../registry/scan-queue";
import { DISPATCH_QUEUE } from "../runs/timers";
import { probeRedis } from "./probe-connections";

/** Every queue the worker host serves (workers/definitions.ts), by the names lib/ gives them. */
export const QUEUE_NAMES: readonly string[] = [SCAN_QUEUE, DISPATCH_QUEUE];

export const QUEUE_STATES = [
  "wait",
  "active",
  "delayed",
  "prioritized",
  "waiting-children",
  "failed",
  "completed",
] as const;
export type QueueState = (typeof QUEUE_STATES)[number];

export type QueueStats = {
  queue: string;
  counts: Record<QueueState, number>;
  /** How long the job that has been due the longest has waited, in ms (0 when none is overdue). */
  lagMs: number;
};

// BullMQ orders the delayed set by `due time × 4096 + a counter`.
const DELAYED_SCORE_FACTOR = 0x1000;

const holder = globalThis as unknown as { openvibeProbeQueues?: Map<string, Queue> };
const queues = (holder.openvibeProbeQueues ??= new Map());

function probeQueue(name: string): Queue {
  let queue = queues.get(name);
  if (!queue) {
    queue = new Queue(name, { connection: probeRedis(), prefix: bullPrefix() });
    queue.on("error", () => {});
    queues.set(name, queue);
  }
  return queue;
}

/**
 * Forgets the probe Queue objects (they share the probe client, which stays open), so the next
 * probe builds them afresh: a Queue whose set-up failed while Redis was down stays failed.
 */
export function resetProbeQueues(): void {
  for (const queue of queues.values()) void queue.close().catch(() => {});
  queues.clear();
}

/** When a waiting job became due: added + delay, or later when it was retried. */
function waitingSince(job: Job): number {
  return Math.max(job.timestamp + (job.delay ?? 0), job.processedOn ?? 0);
}

/** The score of a one-member ZRANGE … WITHSCORES reply, in either RESP2 or RESP3 shape. */
function delayedScore(reply: unknown): number | undefined {
  if (!Array.isArray(reply) || !reply.length) return undefined;
  const score = Array.isArray(reply[0]) ? reply[0][1] : reply[1];
  const n = Number(score);
  return Number.isFinite(n) ? n : undefined;
}

export async function queueStats(name: string, now = Date.now()): Promise<QueueStats> {
  const queue = probeQueue(name);
  const [counts, oldestWaiting, firstDelayed] = await Promise.all([
    queue.getJobCounts(...QUEUE_STATES),
    queue.getJobs(["wait"], 0, 0, true),
    probeRedis().zrange(queue.toKey("delayed"), 0, "0", "WITHSCORES"),
  ]);
  const due: number[] = [];
  if (oldestWaiting[0]) due.push(waitingSince(oldestWaiting[0]));
  const score = delayedScore(firstDelayed);
  if (score !== undefined) due.push(Math.floor(score / DELAYED_SCORE_FACTOR));
  const lagMs = Math.max(0, ...due.map((at) => now - at));
  return {
    queue: name,
    counts: Object.fromEntries(QUEUE_STATES.map((s) => [s, counts[s] ?? 0])) as Record<QueueState, number>,
    lagMs,
  };
}

export async function allQueueStats(now = Date.now()): Promise<QueueStats[]> {
  try {
    return await Promise.all(QUEUE_NAMES.map((name) => queueStats(name, now)));
  } catch (err) {
    resetProbeQueues();
    throw err;
  }
}
