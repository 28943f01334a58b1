// The `scan` queue: stores the scanner's verdict of a published version; the sweep re-queues any
// version left in `scanning` longer than SCAN_STUCK_AFTER_MS (a lost job or a crashed worker).
import { z } from "zod";
import { enqueueScan, scanVersion, SCAN_JOB, SCAN_QUEUE, stuckScans } from "../lib/registry";
import { log } from "../lib/log";
import { defineJob, type QueueDefinition } from "./registry";

export const SCAN_SWEEP_JOB = "scan.sweep";

export const scanQueueDefinition: QueueDefinition = {
  queue: SCAN_QUEUE,
  concurrency: 2,
  // A version stuck in `scanning` is queued again within SCAN_STUCK_AFTER_MS + 60 s.
  schedules: [{ name: SCAN_SWEEP_JOB, everyMs: 60_000 }],
  jobs: [
    defineJob({
      name: SCAN_JOB,
      schema: z.object({ versionId: z.string().min(1).max(64) }),
      handle: async ({ versionId }) => scanVersion(versionId),
    }),
    defineJob({
      name: SCAN_SWEEP_JOB,
      schema: z.object({}).passthrough(),
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
