// The kernel memory and process caps for one job: a cgroup (v2 memory.max + swap.max + pids.max,
// else v1 memory.limit_in_bytes + memsw + pids.max) made under the Link's own cgroup, with its CPU
// group where the cpu controller allows (./cpu-group.ts). When neither memory hierarchy is
// writable the Link falls back to the V8 heap limit plus rlimits, and says so.
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { rmdir } from "node:fs/promises";
import { writeFile } from "node:fs/promises";
import path from "node:path";
import { canMakeChild, safeRead } from "./cgroup-files";
import { detectCpuGroups, makeCpuGroup, wakeCpuGroup, type CpuGroups } from "./cpu-group";

export type MemoryEnforcement = "cgroup-v2" | "cgroup-v1" | "heap-rlimit";

export type CgroupSupport = {
  enforcement: MemoryEnforcement;
  /** Parent folders the job cgroups are made in (v2: one; v1: memory and pids). */
  memoryParent?: string;
  pidsParent?: string;
  /** Where a job's CPU group is made, idle until its job comes (./cpu-group.ts); absent: none. */
  cpu?: CpuGroups;
  /** Why the Link fell back to heap-rlimit, for the report. */
  reason?: string;
};

const JOB_PREFIX = "openvibe-job-";

/**
 * Kills and removes the job cgroups of Sandboxes known to be gone (their folder's lock was taken,
 * see folders.ts); a job cgroup is named `openvibe-job-<owner>-<job>`. bwrap's --die-with-parent
 * has a window during sandbox setup: a Link killed inside it can orphan a tool. Returns the owners
 * whose cgroups could not all be removed (a later sweep tries again).
 */
export async function removeJobCgroups(support: CgroupSupport, owners: ReadonlySet<string>): Promise<Set<string>> {
  const failed = new Set<string>();
  if (owners.size === 0) return failed;
  const cpuParent = support.cpu?.version === 1 ? support.cpu.parent : undefined;
  const parents = [support.memoryParent, support.pidsParent, cpuParent].filter((p): p is string => Boolean(p));
  const jobs = new Map<string, { owner: string; dirs: string[] }>();
  for (const parent of parents) {
    let names: string[] = [];
    try {
      names = readdirSync(parent).filter((name) => name.startsWith(JOB_PREFIX));
    } catch {
      continue;
    }
    for (const name of names) {
      const owner = name.slice(JOB_PREFIX.length).split("-")[0]!;
      if (!owners.has(owner)) continue;
      const job = jobs.get(name) ?? { owner, dirs: [] };
      job.dirs.push(path.join(parent, name));
      jobs.set(name, job);
    }
  }
  for (const { owner, dirs } of jobs.values()) {
    const cg = new JobCgroup(support, dirs);
    cg.killAll();
    await cg.remove().catch(() => failed.add(owner));
  }
  return failed;
}

/** Threads count against pids.max: Node itself runs about a dozen. */
export const JOB_PIDS_MAX = 64;

type MountedHierarchy = { mountPoint: string; version: 1 | 2; controllers: string[] };

function mountedHierarchies(): MountedHierarchy[] {
  const out: MountedHierarchy[] = [];
  for (const line of readFileSync("/proc/self/mounts", "utf8").split("\n")) {
    const [, mountPoint, type, options] = line.split(" ");
    if (!mountPoint || !options) continue;
    if (type === "cgroup2") out.push({ mountPoint, version: 2, controllers: [] });
    if (type === "cgroup") out.push({ mountPoint, version: 1, controllers: options.split(",") });
  }
  return out;
}

/** Our own cgroup per hierarchy, from /proc/self/cgroup ("id:controllers:path"). */
function ownCgroups(): { v2?: string; v1: Map<string, string> } {
  const v1 = new Map<string, string>();
  let v2: string | undefined;
  for (const line of readFileSync("/proc/self/cgroup", "utf8").split("\n")) {
    const match = /^(\d+):([^:]*):(.*)$/.exec(line);
    if (!match) continue;
    const [, id, controllers, cgPath] = match as unknown as [string, string, string, string];
    if (id === "0" && controllers === "") v2 = cgPath;
    else for (const c of controllers.split(",")) v1.set(c, cgPath);
  }
  return { v2, v1 };
}

export function detectCgroups(): CgroupSupport {
  let mounts: MountedHierarchy[];
  let own: ReturnType<typeof ownCgroups>;
  try {
    mounts = mountedHierarchies();
    own = ownCgroups();
  } catch (err) {
    return { enforcement: "heap-rlimit", reason: `cannot read cgroup state: ${(err as Error).message}` };
  }

  const v2 = mounts.find((m) => m.version === 2);
  if (v2 && own.v2 !== undefined) {
    const parent = path.join(v2.mountPoint, own.v2);
    const controllers = safeRead(path.join(parent, "cgroup.controllers")).split(/\s+/);
    if (controllers.includes("memory") && controllers.includes("pids")) {
      const subtree = safeRead(path.join(parent, "cgroup.subtree_control"));
      if (!subtree.includes("memory") || !subtree.includes("pids")) {
        try {
          writeFileSync(path.join(parent, "cgroup.subtree_control"), "+memory +pids");
        } catch {
          // The no-internal-process rule forbids this when the Link shares its cgroup; fall through.
        }
      }
      if (
        canMakeChild(parent, [
          ["memory.max", "67108864"],
          ["memory.swap.max", "0"],
          ["pids.max", "64"],
        ])
      ) {
        return withCpu({ enforcement: "cgroup-v2", memoryParent: parent }, detectCpuGroups({ v2Parent: parent }));
      }
    }
  }

  const memory = mounts.find((m) => m.version === 1 && m.controllers.includes("memory"));
  const pids = mounts.find((m) => m.version === 1 && m.controllers.includes("pids"));
  const memPath = own.v1.get("memory");
  const pidsPath = own.v1.get("pids");
  if (memory && pids && memPath !== undefined && pidsPath !== undefined) {
    const memoryParent = path.join(memory.mountPoint, memPath);
    const pidsParent = path.join(pids.mountPoint, pidsPath);
    const memFiles: Record<string, string> = { "memory.limit_in_bytes": "67108864" };
    if (existsSync(path.join(memoryParent, "memory.memsw.limit_in_bytes")))
      memFiles["memory.memsw.limit_in_bytes"] = "67108864";
    if (canMakeChild(memoryParent, Object.entries(memFiles)) && canMakeChild(pidsParent, [["pids.max", "64"]])) {
      const cpu = mounts.find((m) => m.version === 1 && m.controllers.includes("cpu"));
      const cpuPath = own.v1.get("cpu");
      const v1Parent = cpu && cpuPath !== undefined ? path.join(cpu.mountPoint, cpuPath) : undefined;
      return withCpu({ enforcement: "cgroup-v1", memoryParent, pidsParent }, detectCpuGroups({ v1Parent }));
    }
  }
  return { enforcement: "heap-rlimit", reason: "no writable cgroup with memory and pids controllers" };
}

const withCpu = (support: CgroupSupport, cpu: CpuGroups | null): CgroupSupport => (cpu ? { ...support, cpu } : support);

/** One job's cgroup(s). Made before the sandbox starts; the sandbox's init joins before it runs anything. */
export class JobCgroup {
  /** The memory cap last written, so an unchanged cap costs no write. */
  private memBytes: number | undefined;

  constructor(
    private readonly support: CgroupSupport,
    private readonly dirs: string[],
    /** The folder holding the job's CPU group files, while its sandbox waits idle (./cpu-group.ts). */
    private readonly cpuDir?: string,
  ) {}

  /** `owner` is the Sandbox's folder id: a later Link removes the cgroup once that folder is abandoned. */
  static create(support: CgroupSupport, owner: string, jobId: string, memBytes: number): JobCgroup | null {
    const name = `${JOB_PREFIX}${owner}-${jobId}`;
    if (support.enforcement === "cgroup-v2" && support.memoryParent) {
      const dir = path.join(support.memoryParent, name);
      mkdirSync(dir);
      const cpu = support.cpu && makeCpuGroup(support.cpu, name, dir);
      const cg = new JobCgroup(support, [dir], cpu?.dir);
      cg.limitMemory(memBytes);
      writeFileSync(path.join(dir, "memory.swap.max"), "0");
      writeFileSync(path.join(dir, "pids.max"), String(JOB_PIDS_MAX));
      return cg;
    }
    if (support.enforcement === "cgroup-v1" && support.memoryParent && support.pidsParent) {
      const mem = path.join(support.memoryParent, name);
      const pids = path.join(support.pidsParent, name);
      mkdirSync(mem);
      mkdirSync(pids);
      const cpu = support.cpu && makeCpuGroup(support.cpu, name, mem);
      const cg = new JobCgroup(support, cpu?.made ? [mem, pids, cpu.dir] : [mem, pids], cpu?.dir);
      cg.limitMemory(memBytes);
      writeFileSync(path.join(pids, "pids.max"), String(JOB_PIDS_MAX));
      return cg;
    }
    return null;
  }

  /** Moves a process in; everything it forks afterwards is born inside. */
  add(pid: number): void {
    for (const dir of this.dirs) writeFileSync(path.join(dir, "cgroup.procs"), String(pid));
  }

  /** The same off the main thread: the kernel waits out an RCU grace period on each move. */
  async addAsync(pid: number): Promise<void> {
    await Promise.all(this.dirs.map((dir) => writeFile(path.join(dir, "cgroup.procs"), String(pid))));
  }

  /** Whether the job has a CPU group: its weight is then the group's (tasks in one are outside the autogroups). */
  get weighsCpu(): boolean {
    return Boolean(this.cpuDir);
  }

  /** The job has come: its sandbox, idle while it waited, now gets the CPU at SANDBOX_NICE's weight. */
  wake(): void {
    if (this.cpuDir && this.support.cpu) wakeCpuGroup(this.support.cpu, this.cpuDir);
  }

  /** Sets the job's memory cap (and no swap beyond it) once the job, and its cap, are known. */
  limitMemory(memBytes: number): void {
    if (memBytes === this.memBytes) return;
    this.memBytes = memBytes;
    const mem = this.dirs[0]!;
    if (this.support.enforcement === "cgroup-v2") {
      writeFileSync(path.join(mem, "memory.max"), String(memBytes));
      return;
    }
    // v1 refuses memory.limit_in_bytes above memsw; order the two writes by direction.
    const memsw = path.join(mem, "memory.memsw.limit_in_bytes");
    const hasMemsw = existsSync(memsw);
    const current = Number(safeRead(path.join(mem, "memory.limit_in_bytes")).trim());
    if (hasMemsw && memBytes > current) writeFileSync(memsw, String(memBytes));
    writeFileSync(path.join(mem, "memory.limit_in_bytes"), String(memBytes));
    if (hasMemsw && memBytes <= current) writeFileSync(memsw, String(memBytes));
  }

  /** True when `pid` is already in every one of the job's cgroups (it was born inside). */
  holds(pid: number): boolean {
    const own = safeRead(`/proc/${pid}/cgroup`);
    return this.dirs.every((dir) => {
      const name = path.basename(dir);
      return own.split("\n").some((line) => line.endsWith(`/${name}`));
    });
  }

  /** True when the kernel's OOM killer acted inside this job's cgroup. */
  oomKilled(): boolean {
    const mem = this.dirs[0]!;
    const file = this.support.enforcement === "cgroup-v2" ? "memory.events" : "memory.oom_control";
    const match = /^oom_kill (\d+)$/m.exec(safeRead(path.join(mem, file)));
    if (match) return Number(match[1]) > 0;
    return Number(safeRead(path.join(mem, "memory.failcnt")) || 0) > 0;
  }

  /** Peak memory charged to the job (its whole process tree), in bytes. */
  peakBytes(): number | null {
    const mem = this.dirs[0]!;
    const file = this.support.enforcement === "cgroup-v2" ? "memory.peak" : "memory.max_usage_in_bytes";
    const value = Number(safeRead(path.join(mem, file)).trim());
    return Number.isFinite(value) && value > 0 ? value : null;
  }

  /** Memory charged to the job now, in bytes. */
  currentBytes(): number | null {
    const file = this.support.enforcement === "cgroup-v2" ? "memory.current" : "memory.usage_in_bytes";
    const value = Number(safeRead(path.join(this.dirs[0]!, file)).trim());
    return Number.isFinite(value) && value > 0 ? value : null;
  }

  /** Kills every process left in the job (the sandbox's pid namespace already dies with its init). */
  killAll(): void {
    for (const dir of this.dirs) {
      if (this.support.enforcement === "cgroup-v2" && existsSync(path.join(dir, "cgroup.kill"))) {
        try {
          writeFileSync(path.join(dir, "cgroup.kill"), "1");
          continue;
        } catch {
          // Older kernels: fall back to signalling each process below.
        }
      }
      for (const pid of safeRead(path.join(dir, "cgroup.procs")).split("\n").filter(Boolean)) {
        try {
          process.kill(Number(pid), "SIGKILL");
        } catch {
          // Already gone.
        }
      }
    }
  }

  /** Removes the cgroup(s) once empty; a few tries because the kernel reaps asynchronously. */
  async remove(): Promise<void> {
    for (const dir of this.dirs) {
      for (let attempt = 0; ; attempt++) {
        try {
          // Off the event loop: removing a memory cgroup takes the kernel milliseconds.
          await rmdir(dir);
          break;
        } catch (err) {
          const code = (err as NodeJS.ErrnoException).code;
          if (code === "ENOENT") break;
          if (attempt >= 50) throw err;
          if (attempt === 5) this.killAll();
          await new Promise((resolve) => setTimeout(resolve, 10));
        }
      }
    }
  }
}
