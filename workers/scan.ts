// The `scan` queue: stores the scanner's verdict of a published version; the sweep re-queues any
// version left in `scanning` longer than SCAN_STUCK_AFTER_MS (a lost job or a crashed worker) and,
// when stored versions carry an older scanner's verdict (the scanner was upgraded), queues the
// rescan, which works through them RESCAN_BATCH at a time (lib/registry/rescan.ts).
import { JOBS } from "../lib/jobs";
import { enqueueRescan, enqueueScan, hasOutdatedScans, rescanOutdated, scanVersion, SCAN_QUEUE, stuckScans } from "../lib/registry";
import { log } from "../lib/log";
import { SCANNER_VERSION } from "../lib/scan";
import { defineJob, type QueueDefinition } from "./registry";

export const SCAN_SWEEP_JOB = JOBS.scanSweep.name;

export const scanQueueDefinition: QueueDefinition = {
  queue: SCAN_QUEUE,
  concurrency: 2,
  // A version stuck in `scanning` is queued again within SCAN_STUCK_AFTER_MS + 60 s; a scanner
  // upgrade starts the rescan within 60 s of the first host that runs it.
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
        const outdated = await hasOutdatedScans();
        if (outdated) await enqueueRescan(SCANNER_VERSION, sweep);
        return { requeued: stuck.length, rescan: outdated };
      },
    }),
    defineJob({
      ...JOBS.scanRescan,
      handle: async () => {
        const { rescanned, more } = await rescanOutdated();
        const worse = rescanned.filter((r) => r.worse && r.stored);
        if (worse.length)
          log.warn("scan.rescan.worse", { count: worse.length, versions: worse.map((r) => r.versionId) });
        // the next batch under its own id: this job's id is still held until it completes
        if (more) await enqueueRescan(SCANNER_VERSION, Date.now() + 60_000);
        return { rescanned: rescanned.length, worse: worse.length, more };
      },
    }),
  ],
};
