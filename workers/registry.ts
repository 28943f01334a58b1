// The BullMQ worker host's rules, in one place: a job is `{ name, schema, handle }`, grouped by
// queue; the payload is parsed before anything else runs, a job whose name no definition knows is
// logged and dropped, and every Worker reports its errors. Handlers call lib/ and hold no logic.
import "server-only";
import { Queue, UnrecoverableError, Worker, type Job } from "bullmq";
import type { z } from "zod";
import { log } from "../lib/log";
import { bullConnection } from "../lib/redis";

export type JobDefinition<S extends z.ZodType = z.ZodType> = {
  /** From the job's contract in lib/jobs (`{ queue, name, schema }`), the one its producers add with. */
  queue?: string;
  /** `<queue>.<what>`, e.g. `scan.version`. */
  name: string;
  schema: S;
  handle: (payload: z.output<S>, job: Job) => Promise<unknown>;
};

export type QueueDefinition = {
  queue: string;
  jobs: JobDefinition[];
  /** Jobs of this queue processed at once by one host (default 1). */
  concurrency?: number;
  /** Jobs added every `everyMs` (e.g. a sweep); one schedule per name however many hosts run. */
  schedules?: Array<{ name: string; everyMs: number }>;
};

/** Keeps the payload type of `handle` tied to its schema. */
export function defineJob<S extends z.ZodType>(definition: JobDefinition<S>): JobDefinition {
  return definition as unknown as JobDefinition;
}

/** The processor of one queue: routes a job to its definition by name, payload parsed first. */
export function processorFor(definition: QueueDefinition) {
  const byName = new Map<string, JobDefinition>(definition.jobs.map((job) => [job.name, job]));
  if (byName.size !== definition.jobs.length) throw new Error(`queue ${definition.queue}: two jobs share a name`);
  const stray = definition.jobs.find((job) => job.queue !== undefined && job.queue !== definition.queue);
  if (stray) throw new Error(`queue ${definition.queue}: ${stray.name} belongs to the ${stray.queue} queue`);
  return async (job: Job): Promise<unknown> => {
    const known = byName.get(job.name);
    if (!known) {
      log.warn("job.unknown_name", { queue: definition.queue, name: job.name, jobId: job.id });
      return undefined;
    }
    const parsed = known.schema.safeParse(job.data);
    if (!parsed.success) {
      const issues = parsed.error.issues.map((i) => `${i.path.join(".") || "(payload)"}: ${i.message}`).join("; ");
      log.error("job.payload_invalid", { queue: definition.queue, name: job.name, jobId: job.id, issues });
      // A payload that does not parse never will: no retries.
      throw new UnrecoverableError(`job.payload_invalid: ${issues}`);
    }
    return known.handle(parsed.data, job);
  };
}

export type WorkerHost = { workers: Worker[]; close: () => Promise<void> };

/** Starts one Worker per queue definition. */
export function startWorkers(definitions: QueueDefinition[], options: { watchEveryMs?: number } = {}): WorkerHost {
  const names = definitions.map((d) => d.queue);
  const twice = names.find((name, i) => names.indexOf(name) !== i);
  if (twice) throw new Error(`queue ${twice} is defined twice`);
  for (const { queue, jobs, schedules = [] } of definitions) {
    const unknown = schedules.find((s) => !jobs.some((j) => j.name === s.name));
    if (unknown) throw new Error(`queue ${queue}: no job ${unknown.name} to schedule`);
  }
  const connections: ReturnType<typeof bullConnection>["connection"][] = [];
  const workers = definitions.map((definition) => {
    const bull = bullConnection();
    connections.push(bull.connection);
    const worker = new Worker(definition.queue, processorFor(definition), {
      ...bull,
      concurrency: definition.concurrency ?? 1,
    });
    worker.on("error", (err) => log.error("worker.error", { queue: definition.queue, err }));
    worker.on("failed", (job, err) =>
      log.warn("job.failed", {
        queue: definition.queue,
        name: job?.name,
        jobId: job?.id,
        attempts: job?.attemptsMade,
        err,
      }),
    );
    return worker;
  });
  const watchdogs: NodeJS.Timeout[] = [];
  const queues = definitions
    .filter((d) => d.schedules?.length)
    .map((definition) => {
      const bull = bullConnection();
      connections.push(bull.connection);
      const queue = new Queue(definition.queue, bull);
      const upsert = (name: string, everyMs: number) =>
        // Upserted by name, so every host start (and every copy) keeps exactly one schedule; an upsert
        // of an unchanged schedule keeps its next run where it was.
        queue
          .upsertJobScheduler(name, { every: everyMs }, { name, data: {} })
          .catch((err: unknown) => log.error("worker.schedule_failed", { queue: definition.queue, name, err }));
      const schedules = definition.schedules ?? [];
      for (const { name, everyMs } of schedules) void upsert(name, everyMs);
      // Redis keeps nothing PostgreSQL cannot rebuild, schedules included: after a reconnect (a
      // restarted Redis) they are made again at once, and each interval the host checks they are
      // still there (keys can vanish without a reconnect) and makes any that is missing.
      bull.connection.on("ready", () => {
        for (const { name, everyMs } of schedules) void upsert(name, everyMs);
      });
      for (const { name, everyMs } of schedules) {
        const watchdog = setInterval(() => {
          queue
            .getJobScheduler(name)
            .then((found) => {
              if (found) return;
              log.warn("worker.schedule_restored", { queue: definition.queue, name });
              return upsert(name, everyMs);
            })
            .catch((err: unknown) => log.warn("worker.schedule_check_failed", { queue: definition.queue, name, err }));
        }, options.watchEveryMs ?? everyMs);
        watchdog.unref();
        watchdogs.push(watchdog);
      }
      return queue;
    });
  return {
    workers,
    close: async () => {
      for (const watchdog of watchdogs) clearInterval(watchdog);
      await Promise.all([...workers.map((w) => w.close()), ...queues.map((q) => q.close())]);
      // BullMQ leaves a connection it was given open.
      await Promise.all(connections.map((c) => c.quit().catch(() => undefined)));
    },
  };
}
