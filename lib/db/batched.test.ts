import { describe, expect, it } from "vitest";
import { batchedLookup } from "./batched";

function gate() {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { open, opened };
}

describe("batchedLookup", () => {
  it("sends a lone key at once, and the keys asked for meanwhile together (at most maxBatch)", async () => {
    const asked: number[][] = [];
    const first = gate();
    const double = batchedLookup(async (keys: number[]) => {
      asked.push(keys);
      if (asked.length === 1) await first.opened;
      return keys.map((k) => k * 2);
    }, 3);
    const lone = double(1);
    expect(asked).toEqual([[1]]);
    const rest = [2, 3, 4, 5, 6].map(double);
    first.open();
    expect(await lone).toBe(2);
    expect(await Promise.all(rest)).toEqual([4, 6, 8, 10, 12]);
    expect(asked).toEqual([[1], [2, 3, 4], [5, 6]]);
  });

  it("fails every caller of a failed batch, and only those", async () => {
    let calls = 0;
    const lookup = batchedLookup(async (keys: string[]) => {
      calls += 1;
      if (calls === 1) throw new Error("database away");
      return keys.map((k) => k.toUpperCase());
    });
    const failed = lookup("a");
    const meanwhile = lookup("b");
    await expect(failed).rejects.toThrow("database away");
    expect(await meanwhile).toBe("B");
    expect(await lookup("c")).toBe("C");
  });

  it("refuses an answer that does not match its keys", async () => {
    const short = batchedLookup(async (keys: string[]) => keys.slice(1));
    await expect(short("a")).rejects.toThrow(/answered 0 of 1/);
  });
});
