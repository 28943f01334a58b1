// CPU time of the machine's processes, read from /proc, so a bench can say what its load cost each
// part (the web process, PostgreSQL, the Links). A process counts its own time and the time of the
// children it reaped: a child that ended between two readings is in its parent's total then, and
// the difference of two readings is what the group used in between. A process whose parent died
// first (a sandbox's Node once its bwrap is killed) is reaped by init instead: what no group holds
// is "the rest", the machine's busy time (/proc/stat) less every group's.
import { readdirSync, readFileSync } from "node:fs";
import { statFields } from "../link/sandbox/priority";

/** Linux reports CPU time in clock ticks of USER_HZ, 100 a second. */
const TICK_MS = 10;

export type ProcessCpu = { pid: number; ppid: number; cmdline: string; ms: number };

/** The parent and CPU time (own plus reaped children, in ms) in one /proc/<pid>/stat line. */
export function parseStat(line: string): { pid: number; ppid: number; ms: number } | null {
  const pid = Number(line.slice(0, line.indexOf(" ")));
  const fields = statFields(line);
  // After the name: state, ppid, …, utime (12th), stime, cutime, cstime.
  const [ppid, utime, stime, cutime, cstime] = [1, 11, 12, 13, 14].map((i) => Number(fields[i]));
  if (![pid, ppid, utime, stime, cutime, cstime].every(Number.isSafeInteger)) return null;
  return { pid, ppid: ppid!, ms: (utime! + stime! + cutime! + cstime!) * TICK_MS };
}

export function processes(): ProcessCpu[] {
  const found: ProcessCpu[] = [];
  for (const name of readdirSync("/proc")) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = parseStat(readFileSync(`/proc/${name}/stat`, "utf8"));
      const cmdline = readFileSync(`/proc/${name}/cmdline`, "utf8").replaceAll("\0", " ");
      if (stat) found.push({ ...stat, cmdline });
    } catch {
      // Gone between the listing and the read.
    }
  }
  return found;
}

/** `roots` and every process below them. */
export function withDescendants(all: ProcessCpu[], roots: number[]): ProcessCpu[] {
  const chosen = new Set(roots);
  let grew = true;
  while (grew) {
    grew = false;
    for (const p of all) {
      if (!chosen.has(p.pid) && chosen.has(p.ppid)) {
        chosen.add(p.pid);
        grew = true;
      }
    }
  }
  return all.filter((p) => chosen.has(p.pid));
}

export type CpuGroups = Record<string, (all: ProcessCpu[]) => ProcessCpu[]>;

/**
 * What a tool call's CPU is split into: `site` (the web process or processes, named by the bench),
 * then the Links started by this process (with their sandboxes still running), PostgreSQL, Redis
 * and the bench's agents.
 */
export function callCpuGroups(site: CpuGroups): CpuGroups {
  const ours = (all: ProcessCpu[]) => withDescendants(all, [process.pid]);
  return {
    ...site,
    Links: (all) =>
      withDescendants(
        all,
        ours(all)
          .filter((p) => p.cmdline.includes("openvibe-link") && p.cmdline.includes(" run"))
          .map((p) => p.pid),
      ),
    PostgreSQL: (all) => all.filter((p) => /(^|\/)postgres[: ]/.test(p.cmdline)),
    Redis: (all) => all.filter((p) => p.cmdline.includes("redis-server")),
    agents: (all) => ours(all).filter((p) => /(call|mcp)-client\.mjs/.test(p.cmdline)),
  };
}

/** The machine's busy CPU time in ms, all cores, from the first line of /proc/stat. */
export function parseMachineBusy(stat: string): number {
  // cpu  user nice system idle iowait irq softirq steal …
  const [user, nice, system, , , irq, softirq, steal] = stat.split("\n")[0]!.trim().split(/\s+/).slice(1).map(Number);
  return [user, nice, system, irq, softirq, steal].reduce((sum: number, t) => sum + (t ?? 0), 0) * TICK_MS;
}

export type CpuReading = { groups: Record<string, number>; machine: number };

/** Each group's CPU time now, and the machine's, in ms. */
export function cpuReading(groups: CpuGroups): CpuReading {
  const all = processes();
  return {
    groups: Object.fromEntries(
      Object.entries(groups).map(([name, pick]) => [name, pick(all).reduce((sum, p) => sum + p.ms, 0)]),
    ),
    machine: parseMachineBusy(readFileSync("/proc/stat", "utf8")),
  };
}

/** The machine's busy CPU time between two readings, per call, in ms (every core, every process). */
export function machinePerCall(before: CpuReading, after: CpuReading, calls: number): number {
  return (after.machine - before.machine) / Math.max(1, calls);
}

/** "web 12.3 ms, PostgreSQL 4.5 ms, …, the rest 20.1 ms": what each part used between two readings, per call. */
export function perCall(before: CpuReading, after: CpuReading, calls: number): string {
  const per = (ms: number) => `${(ms / Math.max(1, calls)).toFixed(1)} ms`;
  const used = Object.keys(after.groups).map(
    (name) => [name, after.groups[name]! - (before.groups[name] ?? 0)] as const,
  );
  const named = used.reduce((sum, [, ms]) => sum + ms, 0);
  const machine = after.machine - before.machine;
  return [...used.map(([name, ms]) => `${name} ${per(ms)}`), `the rest ${per(Math.max(0, machine - named))}`].join(
    ", ",
  );
}
