// A sandbox's CPU group: while it boots and waits for its job, the kernel runs it only on CPU that
// nothing else wants (cpu.idle: any other task that wakes takes the CPU at once); from its job on,
// it weighs like a task at SANDBOX_NICE. Without it, the boot of the next sandbox, a Node start,
// competes with the call in flight (PostgreSQL, the site, the Link, the running tool) for the
// machine's cores. Optional: a Link without a writable cpu controller boots at SANDBOX_NICE.
//
// Tasks in a cpu cgroup of their own are outside the kernel's session autogroups, so the group's
// weight replaces the autogroup nice that priority.ts sets for a sandbox in the root group.
import { existsSync, mkdirSync, rmdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { canMakeChild, safeRead, writeAll, type CgroupWrite } from "./cgroup-files";

/** Where job CPU groups are made: a v1 cpu hierarchy folder, or (v2) the job cgroups' own parent. */
export type CpuGroups = { version: 1 | 2; parent: string };

/** cgroup v1 cpu.shares for a nice-10 task (the kernel's weight table; 1024 is nice 0). */
const SHARES_AT_NICE_10 = 110;
const NICE = 10;

/**
 * The files a job CPU group is set up with while it waits, and what its job turns them to, in
 * order: an idle group has the kernel's idle weight and refuses another until it is idle no more.
 */
function settings(version: 1 | 2): { waiting: CgroupWrite[]; running: CgroupWrite[] } {
  const weight: CgroupWrite =
    version === 1 ? ["cpu.shares", String(SHARES_AT_NICE_10)] : ["cpu.weight.nice", String(NICE)];
  return { waiting: [["cpu.idle", "1"]], running: [["cpu.idle", "0"], weight] };
}

/** Whether a child of `parent` takes both settings, one after the other. */
function takesSettings(version: 1 | 2, parent: string): boolean {
  const { waiting, running } = settings(version);
  return canMakeChild(parent, [...waiting, ...running]);
}

/**
 * The CPU groups this Link can make: v2 when the job cgroups' parent (`v2Parent`) has the cpu
 * controller (enabled for its children here if it may be), else the Link's own cgroup in a v1 cpu
 * hierarchy; null when neither takes cpu.idle (kernels before 5.15, or no delegated controller).
 */
export function detectCpuGroups(opts: { v2Parent?: string; v1Parent?: string }): CpuGroups | null {
  if (opts.v2Parent) {
    const parent = opts.v2Parent;
    const controllers = safeRead(path.join(parent, "cgroup.controllers")).split(/\s+/);
    if (controllers.includes("cpu")) {
      if (!safeRead(path.join(parent, "cgroup.subtree_control")).split(/\s+/).includes("cpu")) {
        writeAll(parent, [["cgroup.subtree_control", "+cpu"]]);
      }
      if (takesSettings(2, parent)) return { version: 2, parent };
    }
    return null;
  }
  if (opts.v1Parent && existsSync(path.join(opts.v1Parent, "cpu.idle")) && takesSettings(1, opts.v1Parent)) {
    return { version: 1, parent: opts.v1Parent };
  }
  return null;
}

/**
 * Sets up the CPU group of a job cgroup named `name`: v1 makes its folder (returned, for the
 * caller to move the sandbox into and remove), v2 sets the files in `v2Dir`, the job's own cgroup.
 * A group that cannot be set up is left out: the sandbox then boots at its task nice alone.
 */
export function makeCpuGroup(groups: CpuGroups, name: string, v2Dir: string): { dir: string; made: boolean } | null {
  const dir = groups.version === 1 ? path.join(groups.parent, name) : v2Dir;
  try {
    if (groups.version === 1) mkdirSync(dir);
  } catch {
    return null;
  }
  if (writeAll(dir, settings(groups.version).waiting)) return { dir, made: groups.version === 1 };
  if (groups.version === 1) {
    try {
      rmdirSync(dir);
    } catch {
      // Left empty: removed with the job's other cgroups by the sweep of abandoned ones.
    }
  }
  return null;
}

/** The job has come: from now its sandbox weighs like a task at SANDBOX_NICE, idle no more. Throws if it cannot. */
export function wakeCpuGroup(groups: CpuGroups, dir: string): void {
  for (const [file, value] of settings(groups.version).running) writeFileSync(path.join(dir, file), value);
}
