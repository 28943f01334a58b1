import { describe, expect, it } from "vitest";
import {
  cpuReading,
  parseMachineBusy,
  parseStat,
  perCall,
  processes,
  withDescendants,
  type ProcessCpu,
} from "../../bench/process-cpu";

describe("the benches' CPU readings from /proc", () => {
  it("reads the parent and own plus reaped CPU past a name with spaces and parentheses", () => {
    // pid (comm) state ppid pgrp session tty tpgid flags minflt cminflt majflt cmajflt utime stime cutime cstime …
    const line = "4242 (a) b (c) S 17 4242 4242 0 -1 4194560 100 0 0 0 31 7 150 12 20 0 1 0 500 0 0";
    expect(parseStat(line)).toEqual({ pid: 4242, ppid: 17, ms: (31 + 7 + 150 + 12) * 10 });
    expect(parseStat("garbage")).toBeNull();
    expect(parseStat("1 (x) S 0 1 1 0 -1 0 0 0 0 0 a b c d")).toBeNull();
  });

  it("reads the machine's busy time: user, nice, system, irq, softirq and steal, not idle or iowait", () => {
    expect(parseMachineBusy("cpu  100 5 40 9000 70 3 2 1 0 0\ncpu0 50 2 20 4500 35 1 1 0 0 0\n")).toBe(151 * 10);
  });

  it("takes a process with everything below it, and nothing beside it", () => {
    const p = (pid: number, ppid: number): ProcessCpu => ({ pid, ppid, cmdline: "", ms: pid });
    const all = [p(1, 0), p(10, 1), p(11, 10), p(12, 11), p(20, 1), p(21, 20)];
    expect(
      withDescendants(all, [10])
        .map((x) => x.pid)
        .sort(),
    ).toEqual([10, 11, 12]);
    expect(withDescendants(all, [21]).map((x) => x.pid)).toEqual([21]);
  });

  it("counts this process's own work between two readings", () => {
    const groups = { me: (all: ProcessCpu[]) => all.filter((x) => x.pid === process.pid) };
    expect(processes().some((x) => x.pid === process.pid && x.cmdline.length > 0)).toBe(true);
    const before = cpuReading(groups);
    const until = Date.now() + 120;
    let spin = 0;
    while (Date.now() < until) spin++;
    const after = cpuReading(groups);
    expect(spin).toBeGreaterThan(0);
    expect(after.groups.me! - before.groups.me!).toBeGreaterThanOrEqual(50);
    // The kernel counts a process's time from its exact run time and the machine's in whole ticks
    // per CPU: the machine's may come out a few ticks short of one busy process's over 120 ms.
    const own = after.groups.me! - before.groups.me!;
    expect(after.machine - before.machine).toBeGreaterThanOrEqual(own - 40);
    expect(after.machine - before.machine).toBeGreaterThan(0);
    expect(perCall(before, after, 2)).toMatch(/^me \d+\.\d ms, the rest \d+\.\d ms$/);
  });
});
