// How many jobs this Link runs side by side, and the memory they may hold together. A job takes
// one slot and its `mem_bytes` for as long as it runs; one that does not fit waits, oldest first,
// and is never given less memory than it declared. The poll asks for the free slots and memory
// only, so a job normally fits when it arrives; the wait is for a server that hands over more.
import { availableParallelism, totalmem } from "node:os";
import { LIMIT_CAPS, MAX_JOBS_PER_POLL } from "../../lib/protocol";
import { LinkError } from "../errors";

/** The share of this machine's memory that running jobs may hold together, unless `--memory` says. */
const MEMORY_SHARE = 0.5;
const MIB = 1024 * 1024;

export type SlotPlan = {
  jobs: number;
  memoryBytes: number;
  /** How the numbers were chosen, as `run` and `doctor` print it. */
  why: string;
};

/**
 * The slots of this machine: `--jobs` and `--memory` (MiB) when given, else as many jobs as it has
 * cores and as fit its memory budget at the largest `mem_bytes` a job may declare (at most
 * MAX_JOBS_PER_POLL, at least one).
 */
export function slotPlan(
  given: { jobs?: number; memoryMib?: number } = {},
  machine = { cores: availableParallelism(), memoryBytes: totalmem() },
): SlotPlan {
  if (given.jobs !== undefined && (!Number.isInteger(given.jobs) || given.jobs < 1 || given.jobs > MAX_JOBS_PER_POLL))
    throw new LinkError("link.usage", `--jobs takes a whole number from 1 to ${MAX_JOBS_PER_POLL}; got ${given.jobs}.`);
  const capMib = LIMIT_CAPS.mem_bytes / MIB;
  if (given.memoryMib !== undefined && (!Number.isInteger(given.memoryMib) || given.memoryMib < capMib))
    throw new LinkError(
      "link.usage",
      `--memory takes MiB, at least ${capMib} (the most one job may declare); got ${given.memoryMib}.`,
    );
  const memoryBytes =
    given.memoryMib !== undefined ? given.memoryMib * MIB : Math.floor(machine.memoryBytes * MEMORY_SHARE);
  const fit = Math.max(1, Math.floor(memoryBytes / LIMIT_CAPS.mem_bytes));
  const jobs = given.jobs ?? Math.max(1, Math.min(machine.cores, fit, MAX_JOBS_PER_POLL));
  const memory = `${Math.round(memoryBytes / MIB)} MiB for jobs`;
  const why =
    given.jobs !== undefined
      ? `--jobs ${jobs}, ${memory}`
      : `${machine.cores} cores, ${memory} (${fit} jobs at the ${capMib} MiB cap)`;
  return { jobs, memoryBytes, why };
}

type Waiter = { memBytes: number; grant: (release: () => void) => void };

export class Slots {
  private running = 0;
  private held = 0;
  private readonly waiting: Waiter[] = [];
  private readonly freed = new Set<() => void>();

  constructor(
    readonly jobs: number,
    readonly memoryBytes: number,
  ) {}

  /** Slots neither running a job nor promised to one that waits. */
  get free(): number {
    return Math.max(0, this.jobs - this.running - this.waiting.length);
  }

  /** Memory not held by running jobs nor asked for by waiting ones. */
  get memoryFree(): number {
    const asked = this.waiting.reduce((sum, w) => sum + w.memBytes, 0);
    return Math.max(0, this.memoryBytes - this.held - asked);
  }

  get active(): number {
    return this.running;
  }

  /** Whether a job of this size can ever run here. */
  fits(memBytes: number): boolean {
    return memBytes <= this.memoryBytes;
  }

  /**
   * A slot and `memBytes` for one job: at once when they are free and nobody waits before it, else
   * once the jobs ahead of it have finished. Resolves to the release, to be called once it ends.
   */
  acquire(memBytes: number, signal?: AbortSignal): Promise<() => void> {
    if (!this.fits(memBytes))
      return Promise.reject(new LinkError("link.memory_budget", "The job needs more memory than this Link's budget."));
    return new Promise((resolve, reject) => {
      const waiter: Waiter = { memBytes, grant: resolve };
      const onAbort = () => {
        const at = this.waiting.indexOf(waiter);
        if (at < 0) return;
        this.waiting.splice(at, 1);
        reject(signal!.reason);
        this.grantWaiting();
      };
      if (signal?.aborted) return reject(signal.reason);
      signal?.addEventListener("abort", onAbort, { once: true });
      waiter.grant = (release) => {
        signal?.removeEventListener("abort", onAbort);
        resolve(release);
      };
      this.waiting.push(waiter);
      this.grantWaiting();
    });
  }

  /** Resolves when a slot is free (at once if one is). */
  untilFree(signal?: AbortSignal): Promise<void> {
    if (this.free > 0 || signal?.aborted) return Promise.resolve();
    return new Promise((resolve) => {
      const done = () => {
        this.freed.delete(done);
        signal?.removeEventListener("abort", done);
        resolve();
      };
      this.freed.add(done);
      signal?.addEventListener("abort", done, { once: true });
    });
  }

  private grantWaiting(): void {
    while (this.waiting.length) {
      const next = this.waiting[0]!;
      if (this.running >= this.jobs || this.held + next.memBytes > this.memoryBytes) break;
      this.waiting.shift();
      this.running += 1;
      this.held += next.memBytes;
      let released = false;
      next.grant(() => {
        if (released) return;
        released = true;
        this.running -= 1;
        this.held -= next.memBytes;
        this.grantWaiting();
        for (const wake of [...this.freed]) wake();
      });
    }
  }
}
