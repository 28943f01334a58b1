// The `tlog` queue: re-signs the transparency log's checkpoint every 30 s, so a signed tree head is
// never older than a minute even when nobody asks (readers also get one signed on demand). The
// state is the LogCheckpoint rows in PostgreSQL; losing Redis only delays the next signature.
import { JOBS, QUEUES } from "../lib/jobs";
import { signCheckpoint } from "../lib/tlog";
import { defineJob, type QueueDefinition } from "./registry";

export const TLOG_QUEUE = QUEUES.tlog;
export const TLOG_CHECKPOINT_JOB = JOBS.tlogCheckpoint.name;

export const tlogQueueDefinition: QueueDefinition = {
  queue: TLOG_QUEUE,
  schedules: [{ name: TLOG_CHECKPOINT_JOB, everyMs: 30_000 }],
  jobs: [
    defineJob({
      ...JOBS.tlogCheckpoint,
      handle: async () => {
        const signed = await signCheckpoint();
        return { size: signed.size, signedAt: signed.signedAt.toISOString() };
      },
    }),
  ],
};
