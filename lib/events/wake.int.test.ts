// Wake-ups in one process against the real Redis: a job's or a step's waiter here is woken by the
// notify itself, before (and without) the published message; a person's-log channel is not, so
// whoever it wakes always finds the event already in the log.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { setupIntegration, type IntegrationEnv } from "../../test/helpers/integration";

let env: IntegrationEnv;
let events: typeof import("./index");

beforeAll(async () => {
  env = await setupIntegration("wake");
  events = await import("./index");
});

afterAll(async () => {
  await events?.closeEvents();
  await env?.teardown();
});

/** The process's subscriber connection, which carries every published wake-up to this process. */
const subscriber = () =>
  (globalThis as unknown as { openvibeEvents: { sub: import("ioredis").Redis; ready: Promise<unknown> } }).openvibeEvents;

describe("a wake-up in the process that notifies", () => {
  it("reaches a Link's or an agent's waiter without Redis, and a person's-log waiter only through it", async () => {
    const { channels } = events;
    // Subscribed first, then deaf: only a wake-up made in this process can reach these waiters.
    expect(await events.waitFor([channels.step("warm-up")], 1)).toBe(false);
    await subscriber().ready;
    await subscriber().sub.punsubscribe();

    const job = events.waitFor([channels.userJobs("u1")], 5_000);
    const step = events.waitFor([channels.step("s1")], 5_000);
    const log = events.waitFor([channels.userSteps("u1")], 400);
    await events.notify(channels.userJobs("u1"), channels.step("s1"), channels.userSteps("u1"));
    expect(await job).toBe(true);
    expect(await step).toBe(true);
    expect(await log).toBe(false);

    // The person's event is in the log all the same.
    const { redis, key } = await import("../redis");
    expect(await redis().xlen(key("events-log", "u1"))).toBe(1);
  });
});

describe("a watch", () => {
  it("keeps a wake-up that came while its owner was busy, and only one", async () => {
    const { channels } = events;
    const watching = events.watch([channels.step("s2")]);
    try {
      // Woken before anyone waits (the step moved while it was being read): the next wait ends at once.
      await events.notify(channels.step("s2"));
      expect(await watching.next(5_000)).toBe(true);
      // That wake-up is used up: the next wait runs to its timeout.
      expect(await watching.next(50)).toBe(false);
      const woken = watching.next(5_000);
      await events.notify(channels.step("s2"));
      expect(await woken).toBe(true);
    } finally {
      watching.close();
    }
    // Closed, it hears nothing more.
    const late = events.waitFor([channels.step("other")], 50);
    await events.notify(channels.step("s2"));
    expect(await late).toBe(false);
  });
});

describe("a wake-up's echo from Redis", () => {
  it("wakes nobody in the process that sent it a second time, and a wake-up from elsewhere still does", async () => {
    const { channels } = events;
    const { key, redis } = await import("../redis");
    await subscriber().sub.psubscribe(key("events", "*"));
    const watching = events.watch([channels.step("s3")]);
    try {
      await events.notify(channels.step("s3"));
      expect(await watching.next(1_000)).toBe(true);
      // The published copy has come back by now; it is not a second wake-up.
      expect(await watching.next(400)).toBe(false);
      // Another process's wake-up on the same step does wake it.
      const woken = watching.next(5_000);
      await redis().publish(key("events", channels.step("s3")), "1");
      expect(await woken).toBe(true);
    } finally {
      watching.close();
    }
  });
});
