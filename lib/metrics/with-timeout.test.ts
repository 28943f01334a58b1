import { describe, expect, it } from "vitest";
import { cached, ProbeTimeoutError, withTimeout } from "./with-timeout";

describe("withTimeout", () => {
  it("answers with the value when it comes in time", async () => {
    await expect(withTimeout(Promise.resolve(7), 1000, "x")).resolves.toBe(7);
  });

  it("gives up after the bound with a ProbeTimeoutError naming what hung", async () => {
    const never = new Promise<never>(() => {});
    const err = await withTimeout(never, 20, "PostgreSQL").catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ProbeTimeoutError);
    expect((err as Error).message).toBe("PostgreSQL did not answer within 20 ms");
  });
});

describe("cached", () => {
  it("shares one computation between concurrent callers and keeps it for the TTL", async () => {
    let calls = 0;
    const c = cached(10_000, async () => ++calls);
    expect(await Promise.all([c.get(), c.get(), c.get()])).toEqual([1, 1, 1]);
    expect(await c.get()).toBe(1);
    c.clear();
    expect(await c.get()).toBe(2);
  });

  it("does not keep a failure", async () => {
    let calls = 0;
    const c = cached(10_000, async () => {
      calls++;
      if (calls === 1) throw new Error("down");
      return calls;
    });
    await expect(c.get()).rejects.toThrow("down");
    expect(await c.get()).toBe(2);
  });
});
