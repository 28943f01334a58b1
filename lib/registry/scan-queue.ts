// The BullMQ `scan` queue: publishing adds one job per version; the worker (workers/) stores the
// verdict. Job ids are the version id, so a retried publish never queues the same scan twice.
import "server-only";
import { Queue } from "bullmq";
import { addJob, JOBS, QUEUES } from "../jobs";
import { queueConnection, withinRedisDeadline } from "../redis";

export const SCAN_QUEUE = QUEUES.scan;
/** Attempts per scan job before the sweeper has to queue it again. */
export const SCAN_ATTEMPTS = 5;

const holder = globalThis as unknown as { openvibeScanQueue?: Queue };

export function scanQueue(): Queue {
  if (holder.openvibeScanQueue) return holder.openvibeScanQueue;
  holder.openvibeScanQueue = new Queue(SCAN_QUEUE, {
    ...queueConnection(),
    defaultJobOptions: {
      attempts: SCAN_ATTEMPTS,
      backoff: { type: "exponential", delay: 1_000 },
      removeOnComplete: { count: 1_000 },
      removeOnFail: { count: 1_000 },
    },
  });
  // Connection errors are logged by lib/redis, throttled; BullMQ would print each one.
  holder.openvibeScanQueue.on("error", () => undefined);
  return holder.openvibeScanQueue;
}

/**
 * Queues the scan of a version. `sweep` marks a re-queue by the sweeper: a new job id, because
 * BullMQ ignores an id it still holds (a job that used up its attempts stays in the failed set).
 */
export async function enqueueScan(versionId: string, sweep?: number): Promise<void> {
  const jobId = sweep === undefined ? `scan-${versionId}` : `scan-${versionId}-sweep-${sweep}`;
  await withinRedisDeadline(addJob(scanQueue(), JOBS.scanVersion, { versionId }, { jobId }), "the scan queue");
}

/**
 * Queues a rescan of versions scanned by an older scanner. One job id per scanner version and
 * minute, so the sweep and a job that left more behind never pile up copies.
 */
export async function enqueueRescan(scannerVersion: string, now = Date.now()): Promise<void> {
  const jobId = `rescan-${scannerVersion}-${Math.floor(now / 60_000)}`;
  await withinRedisDeadline(addJob(scanQueue(), JOBS.scanRescan, {}, { jobId }), "the scan queue");
}
