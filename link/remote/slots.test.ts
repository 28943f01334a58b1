import { describe, expect, it } from "vitest";
import { LIMIT_CAPS, MAX_JOBS_PER_POLL } from "../../lib/protocol";
import { slotPlan, Slots } from "./slots";

const MIB = 1024 * 1024;
const GIB = 1024 * MIB;

describe("slotPlan", () => {
  it("defaults to the cores, as far as half the memory holds jobs at the largest cap", () => {
    expect(slotPlan({}, { cores: 2, memoryBytes: 24 * GIB })).toMatchObject({ jobs: 2, memoryBytes: 12 * GIB });
    expect(slotPlan({}, { cores: 8, memoryBytes: 1 * GIB }).jobs).toBe(2);
    expect(slotPlan({}, { cores: 64, memoryBytes: 256 * GIB }).jobs).toBe(MAX_JOBS_PER_POLL);
    expect(slotPlan({}, { cores: 4, memoryBytes: 256 * MIB }).jobs).toBe(1);
    expect(slotPlan({}, { cores: 2, memoryBytes: 24 * GIB }).why).toBe("2 cores, 12288 MiB for jobs (48 jobs at the 256 MiB cap)");
  });

  it("takes --jobs and --memory as given, and refuses what cannot work", () => {
    expect(slotPlan({ jobs: 3, memoryMib: 512 }, { cores: 2, memoryBytes: GIB })).toEqual({
      jobs: 3,
      memoryBytes: 512 * MIB,
      why: "--jobs 3, 512 MiB for jobs",
    });
    expect(() => slotPlan({ jobs: 0 })).toThrow(/--jobs takes a whole number from 1 to 16/);
    expect(() => slotPlan({ jobs: MAX_JOBS_PER_POLL + 1 })).toThrow(/--jobs/);
    expect(() => slotPlan({ memoryMib: 100 })).toThrow(/at least 256/);
  });
});

describe("Slots", () => {
  it("grants at most `jobs` at once, and the next one when a job ends", async () => {
    const slots = new Slots(2, 4 * GIB);
    const a = await slots.acquire(100 * MIB);
    const b = await slots.acquire(100 * MIB);
    expect(slots.free).toBe(0);
    let third = false;
    const c = slots.acquire(100 * MIB).then((release) => ((third = true), release));
    await Promise.resolve();
    expect(third).toBe(false);
    a();
    a(); // a second release of the same job frees nothing more
    (await c)();
    expect(third).toBe(true);
    expect(slots.active).toBe(1);
    b();
    expect([slots.active, slots.free, slots.memoryFree]).toEqual([0, 2, 4 * GIB]);
  });

  it("never holds more memory than its budget: a job that does not fit waits, and waits in order", async () => {
    const slots = new Slots(4, 512 * MIB);
    const big = await slots.acquire(400 * MIB);
    const order: string[] = [];
    const second = slots.acquire(200 * MIB).then((r) => (order.push("second"), r));
    const small = slots.acquire(50 * MIB).then((r) => (order.push("small"), r));
    await new Promise((r) => setTimeout(r, 10));
    // 50 MiB would fit next to the big one, but it came after a job that waits: oldest first.
    expect(order).toEqual([]);
    expect(slots.memoryFree).toBe(0);
    big();
    const [r2, r3] = await Promise.all([second, small]);
    expect(order).toEqual(["second", "small"]);
    expect(slots.memoryFree).toBe(512 * MIB - 250 * MIB);
    r2();
    r3();
  });

  it("refuses a job larger than the whole budget, and drops a waiting job that is withdrawn", async () => {
    const slots = new Slots(1, LIMIT_CAPS.mem_bytes);
    await expect(slots.acquire(LIMIT_CAPS.mem_bytes + 1)).rejects.toMatchObject({ code: "link.memory_budget" });
    const running = await slots.acquire(10 * MIB);
    const withdraw = new AbortController();
    const waiting = slots.acquire(10 * MIB, withdraw.signal);
    withdraw.abort(new Error("withdrawn"));
    await expect(waiting).rejects.toThrow("withdrawn");
    running();
    expect([slots.active, slots.free]).toEqual([0, 1]);
  });

  it("untilFree resolves once a slot frees up", async () => {
    const slots = new Slots(1, GIB);
    const release = await slots.acquire(MIB);
    let freed = false;
    const wait = slots.untilFree().then(() => (freed = true));
    await Promise.resolve();
    expect(freed).toBe(false);
    release();
    await wait;
    expect(freed).toBe(true);
  });
});
