// Every BullMQ job there is, as `{ queue, name, schema }`: producers (lib/registry, lib/runs) add
// jobs through these, the worker host (workers/) processes them with the same ones, so a payload
// is checked where it is made and again where it is consumed. Names are `<queue>.<what>`.
import { z } from "zod";

export const QUEUES = { scan: "scan", dispatch: "dispatch", tlog: "tlog" } as const;
export type QueueName = (typeof QUEUES)[keyof typeof QUEUES];

const rowId = z.string().min(1).max(64);
/** A scheduled job's payload: BullMQ's job schedulers add `{}`. */
const scheduled = z.object({}).passthrough();

function job<Q extends QueueName, N extends `${Q}.${string}`, S extends z.ZodType>(queue: Q, name: N, schema: S) {
  return { queue, name, schema };
}

export const JOBS = {
  /** Store the scanner's verdict of a published version. */
  scanVersion: job(QUEUES.scan, "scan.version", z.object({ versionId: rowId })),
  /** Queue again every version stuck in `scanning`. */
  scanSweep: job(QUEUES.scan, "scan.sweep", scheduled),
  /** Rescan, a batch at a time, the versions an older scanner judged. */
  scanRescan: job(QUEUES.scan, "scan.rescan", scheduled),
  /**
   * Run jobs' time to live runs out in this second (Unix seconds): every job due by then expires.
   * One timer per second for all jobs, not one per job (early wake-up; the sweep is the record).
   */
  jobsDue: job(QUEUES.dispatch, "dispatch.jobs_due", z.object({ second: z.number().int().nonnegative() })),
  /**
   * Placed or running jobs' leases run out in this second (Unix seconds): every job whose lease ran
   * out by then is placed again or expires. One timer per second for all jobs, as `jobsDue`.
   */
  leasesDue: job(QUEUES.dispatch, "dispatch.leases_due", z.object({ second: z.number().int().nonnegative() })),
  /** A pending step's approval window closed. */
  stepExpire: job(QUEUES.dispatch, "dispatch.step_expire", z.object({ stepId: rowId })),
  /** Every due deadline and owed submission, from PostgreSQL. */
  dispatchSweep: job(QUEUES.dispatch, "dispatch.sweep", scheduled),
  /** Re-sign the transparency log's checkpoint. */
  tlogCheckpoint: job(QUEUES.tlog, "tlog.checkpoint", scheduled),
};

export type JobContract = (typeof JOBS)[keyof typeof JOBS];
export type JobName = JobContract["name"];
