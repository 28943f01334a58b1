// Every queue the worker host serves, one file per queue beside this one, and the repeating
// sweeps that catch work whose own job or timer was lost.
import { dispatchQueueDefinition } from "./dispatch";
import type { QueueDefinition } from "./registry";
import { scanQueueDefinition, SCAN_SWEEP_JOB } from "./scan";
import type { Schedule } from "./schedules";
import { TIMER_JOBS, DISPATCH_QUEUE } from "../lib/runs";
import { SCAN_QUEUE } from "../lib/registry";

export const definitions: QueueDefinition[] = [scanQueueDefinition, dispatchQueueDefinition];

/** A version stuck in `scanning` is re-queued within SCAN_STUCK_AFTER_MS + 60 s. */
export const schedules: Schedule[] = [
  { queue: SCAN_QUEUE, name: SCAN_SWEEP_JOB, everyMs: 60_000 },
  { queue: DISPATCH_QUEUE, name: TIMER_JOBS.sweep, everyMs: 30_000 },
];
