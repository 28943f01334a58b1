// The one way lib/ adds a job: the payload is parsed with the job's own schema before
// `queue.add`, so a bad payload fails in the producer, not later in a worker.
import type { JobsOptions, Queue } from "bullmq";
import type { z } from "zod";
import type { JobContract } from "./definitions";

export async function addJob<J extends JobContract>(queue: Queue, job: J, payload: z.input<J["schema"]>, options?: JobsOptions): Promise<void> {
  if (queue.name !== job.queue) throw new Error(`${job.name} belongs to the ${job.queue} queue, not ${queue.name}`);
  await queue.add(job.name, job.schema.parse(payload), options);
}
