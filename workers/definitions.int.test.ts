// Producers and the worker host share one set of job definitions (lib/jobs): every job is served
// by the queue it names, with the very schema producers add with, and addJob refuses a bad
// payload before anything reaches Redis.
import { Queue } from "bullmq";
import { afterAll, describe, expect, it } from "vitest";
import { ZodError } from "zod";
import { addJob, JOBS } from "../lib/jobs";
import { bullConnection } from "../lib/redis";
import { definitions } from "./definitions";

const bull = bullConnection();
const queue = new Queue(JOBS.scanVersion.queue, bull);

afterAll(async () => {
  await queue.close();
  await bull.connection.quit();
});

describe("job definitions", () => {
  it("every job of lib/jobs is served by its own queue with the same schema, and nothing else is", () => {
    const served = definitions.flatMap((queueDef) => queueDef.jobs.map((job) => ({ queue: queueDef.queue, job })));
    expect(served.map(({ job }) => job.name).sort()).toEqual(Object.values(JOBS).map((job) => job.name).sort());
    for (const contract of Object.values(JOBS)) {
      const found = served.find(({ job }) => job.name === contract.name)!;
      expect(found.queue, contract.name).toBe(contract.queue);
      expect(found.job.schema, contract.name).toBe(contract.schema);
      expect(contract.name).toMatch(new RegExp(`^${contract.queue}\\.[a-z][a-z_]*$`));
    }
  });

  it("addJob parses the payload before queue.add: a bad one never reaches Redis", async () => {
    const jobId = `definitions-test-${Date.now()}`;
    // @ts-expect-error versionId must be a string: the producer does not compile either
    await expect(addJob(queue, JOBS.scanVersion, { versionId: 42 }, { jobId })).rejects.toBeInstanceOf(ZodError);
    expect(await queue.getJob(jobId)).toBeUndefined();
    await expect(addJob(queue, JOBS.jobsDue, { second: 1 }, { jobId })).rejects.toThrow(/belongs to the dispatch queue/);

    await addJob(queue, JOBS.scanVersion, { versionId: "v1" }, { jobId, delay: 3_600_000 });
    const added = await queue.getJob(jobId);
    expect(added?.name).toBe("scan.version");
    expect(added?.data).toEqual({ versionId: "v1" });
    await added?.remove();
  });
});
