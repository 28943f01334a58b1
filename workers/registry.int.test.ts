// The worker host against the real Redis: jobs are routed by name, payloads parsed before the
// handler runs, unknown names dropped, and close() lets the process end.
import { randomBytes } from "node:crypto";
import { Queue, QueueEvents } from "bullmq";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { bullConnection } from "../lib/redis";
import { defineJob, startWorkers, type WorkerHost } from "./registry";

const queueName = `registry-test-${randomBytes(4).toString("hex")}`;
const handled: Array<{ n: number }> = [];
let host: WorkerHost;
let queue: Queue;
let events: QueueEvents;
const connections: ReturnType<typeof bullConnection>["connection"][] = [];

beforeAll(async () => {
  host = startWorkers([
    {
      queue: queueName,
      jobs: [
        defineJob({
          name: "test.double",
          schema: z.object({ n: z.number().int() }),
          handle: async (payload) => {
            handled.push(payload);
            return { doubled: payload.n * 2 };
          },
        }),
      ],
    },
  ]);
  const queueBull = bullConnection();
  const eventsBull = bullConnection();
  connections.push(queueBull.connection, eventsBull.connection);
  queue = new Queue(queueName, queueBull);
  events = new QueueEvents(queueName, eventsBull);
  await Promise.all([queue.waitUntilReady(), events.waitUntilReady(), ...host.workers.map((w) => w.waitUntilReady())]);
});

afterAll(async () => {
  await host.close();
  await queue.obliterate({ force: true });
  await events.close();
  await queue.close();
  await Promise.all(connections.map((c) => c.quit()));
});

describe("startWorkers", () => {
  it("runs the handler of the job's name with the parsed payload and keeps its result", async () => {
    const job = await queue.add("test.double", { n: 21 });
    await expect(job.waitUntilFinished(events, 20_000)).resolves.toEqual({ doubled: 42 });
    expect(handled).toContainEqual({ n: 21 });
  });

  it("fails a job whose payload does not parse, without calling the handler or retrying", async () => {
    const before = handled.length;
    const job = await queue.add("test.double", { n: "21" }, { attempts: 3 });
    await expect(job.waitUntilFinished(events, 20_000)).rejects.toThrow(/job\.payload_invalid: n:/);
    const stored = await queue.getJob(job.id!);
    expect(stored?.attemptsMade).toBe(1);
    expect(handled.length).toBe(before);
  });

  it("drops a job whose name no definition knows", async () => {
    const before = handled.length;
    const job = await queue.add("test.unknown", { n: 1 });
    await job.waitUntilFinished(events, 20_000);
    expect(await queue.getJobState(job.id!)).toBe("completed");
    expect(handled.length).toBe(before);
  });

  it("keeps one schedule per scheduled job name, however often a host starts", async () => {
    const scheduled = `registry-sched-${randomBytes(4).toString("hex")}`;
    const definition = {
      queue: scheduled,
      jobs: [defineJob({ name: "test.sweep", schema: z.object({}), handle: async () => "swept" })],
      schedules: [{ name: "test.sweep", everyMs: 60_000 }],
    };
    const first = startWorkers([definition]);
    const second = startWorkers([definition]);
    const bull = bullConnection();
    const probe = new Queue(scheduled, bull);
    try {
      await expect
        .poll(async () => (await probe.getJobSchedulers()).map((s) => s.key), { timeout: 10_000 })
        .toEqual(["test.sweep"]);
      expect((await probe.getJobScheduler("test.sweep"))?.every).toBe(60_000);
    } finally {
      await Promise.all([first.close(), second.close()]);
      await probe.obliterate({ force: true });
      await probe.close();
      await bull.connection.quit();
    }
  });

  it("makes a schedule again when it vanishes from Redis, within one check", async () => {
    const scheduled = `registry-watch-${randomBytes(4).toString("hex")}`;
    const definition = {
      queue: scheduled,
      jobs: [defineJob({ name: "test.sweep", schema: z.object({}), handle: async () => "swept" })],
      schedules: [{ name: "test.sweep", everyMs: 60_000 }],
    };
    const watched = startWorkers([definition], { watchEveryMs: 300 });
    const bull = bullConnection();
    const probe = new Queue(scheduled, bull);
    try {
      await expect.poll(async () => (await probe.getJobSchedulers()).length, { timeout: 10_000 }).toBe(1);
      await probe.removeJobScheduler("test.sweep");
      expect(await probe.getJobScheduler("test.sweep")).toBeFalsy();
      await expect
        .poll(async () => (await probe.getJobScheduler("test.sweep"))?.every, { timeout: 5_000 })
        .toBe(60_000);
    } finally {
      await watched.close();
      await probe.obliterate({ force: true });
      await probe.close();
      await bull.connection.quit();
    }
  });

  it("refuses a schedule for a job the queue does not define, before starting anything", () => {
    expect(() =>
      startWorkers([{ queue: "never-started", jobs: [], schedules: [{ name: "test.nothing", everyMs: 1000 }] }]),
    ).toThrow(/no job test\.nothing to schedule/);
  });

  it("refuses two queue definitions with the same name", () => {
    expect(() =>
      startWorkers([
        { queue: "dup", jobs: [] },
        { queue: "dup", jobs: [] },
      ]),
    ).toThrow(/defined twice/);
  });
});
