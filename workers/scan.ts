// The `scan` queue: stores the scanner's verdict of a published version; the sweep re-queues any
// version left in `scanning` longer than SCAN_STUCK_AFTER_MS (a lost job or a crashed worker).
import { JOBS } from "../lib/jobs";
import { enqueueScan, scanVersion, SCAN_QUEUE, stuckScans } from "../lib/registry";
import { log } from "../lib/log";
import { defineJob, type QueueDefinition } from "./registry";

export const SCAN_SWEEP_JOB = JOBS.scanSweep.name;

export const scanQueueDefinition: QueueDefinition = {
  queue: SCAN_QUEUE,
  concurrency: 2,
  // A version stuck in `scanning` is queued again within SCAN_STUCK_AFTER_MS + 60 s.
  schedules: [{ name: SCAN_SWEEP_JOB, everyMs: 60_000 }],
  jobs: [
    defineJob({ ...JOBS.scanVersion, handle: async ({ versionId }) => scanVersion(versionId) }),
    defineJob({
      ...JOBS.scanSweep,
      handle: async () => {
        const stuck = await stuckScans();
        const sweep = Date.now();
        for (const versionId of stuck) await enqueueScan(versionId, sweep);
        if (stuck.length) log.warn("scan.sweep.requeued", { count: stuck.length });
        return { requeued: stuck.length };
      },
    }),
  ],
};
