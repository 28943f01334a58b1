import { describe, expect, it } from "vitest";
import { batchedLookup } from "./batched";

describe("batchedLookup", () => {
  it("asks once for the keys of one turn, in batches of at most maxBatch, and answers each its own", async () => {
    const asked: number[][] = [];
    const double = batchedLookup(async (keys: number[]) => {
      asked.push(keys);
      return keys.map((k) => k * 2);
    }, 3);
    const answers = await Promise.all([1, 2, 3, 4, 5].map(double));
    expect(answers).toEqual([2, 4, 6, 8, 10]);
    expect(asked).toEqual([
      [1, 2, 3],
      [4, 5],
    ]);
    // The next turn is a batch of its own.
    expect(await double(7)).toBe(14);
    expect(asked).toHaveLength(3);
  });

  it("fails every caller of a failed batch, and only those", async () => {
    let calls = 0;
    const lookup = batchedLookup(async (keys: string[]) => {
      calls += 1;
      if (calls === 1) throw new Error("database away");
      return keys.map((k) => k.toUpperCase());
    });
    const first = await Promise.allSettled([lookup("a"), lookup("b")]);
    expect(first.map((r) => r.status)).toEqual(["rejected", "rejected"]);
    expect(await lookup("c")).toBe("C");
  });

  it("refuses an answer that does not match its keys", async () => {
    const short = batchedLookup(async (keys: string[]) => keys.slice(1));
    await expect(Promise.all([short("a"), short("b")])).rejects.toThrow(/answered 1 of 2/);
  });
});
