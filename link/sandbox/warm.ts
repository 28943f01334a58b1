// Warm sandboxes: a sandbox booted before its job (namespaces, cgroup, proxy socket, Node with the
// permission flags and the preload), blocked in warm.cjs on its control descriptor. The pool keeps
// up to `depth` idle per `net` policy (one per job slot of the Link), booted for the memory cap of
// the last job of that policy (the heap limit is a Node flag, fixed at boot). Each serves exactly
// one job and is destroyed after it; the next one boots once that job is over. A job that finds
// none ready runs cold.
import type { Socket } from "node:net";
import type { Started } from "./collect";
import type { JobFolder } from "./run";
import type { NetPolicy } from "./policy";
import type { EgressProxy } from "./proxy";

/** What every warm sandbox's Node runs after the preload (the path inside /job). */
export const WARM_FILE = ".openvibe/warm.cjs";
/** The descriptor warm.cjs reads its job from (and writes its "ready" byte to). */
export const CONTROL_FD = 5;
/** A warm sandbox not ready this long after its boot began is given up (the job then runs cold). */
const BOOT_TIMEOUT_MS = 10_000;

export type WarmSandbox = {
  net: NetPolicy;
  memBytes: number;
  folder: JobFolder;
  sandbox: Started;
  control: Socket;
  proxy: EgressProxy | undefined;
  /** True once warm.cjs said it waits; false when it died or timed out first. */
  ready: Promise<boolean>;
  isReady: boolean;
  /** Kills what is left of it and frees its cgroup and proxy (not its folder). */
  destroy(): Promise<void>;
};

export function alive(warm: WarmSandbox): boolean {
  const { child } = warm.sandbox;
  return warm.isReady && child.exitCode === null && child.signalCode === null;
}

/** Waits for warm.cjs's byte on the control descriptor; false if the sandbox ends or stalls first. */
export function readiness(warm: WarmSandbox, mark: (ready: boolean) => void): Promise<boolean> {
  const { child } = warm.sandbox;
  return new Promise<boolean>((resolve) => {
    const settle = (ready: boolean) => {
      clearTimeout(timer);
      warm.control.off("data", onData);
      child.off("exit", onExit);
      mark(ready);
      resolve(ready);
    };
    const onData = () => settle(true);
    const onExit = () => settle(false);
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      settle(false);
    }, BOOT_TIMEOUT_MS);
    timer.unref();
    warm.control.once("data", onData);
    child.once("exit", onExit);
  });
}

type Boot = (net: NetPolicy, memBytes: number) => Promise<WarmSandbox>;

/** Gives a booting sandbox its CPU weight (./cpu-group.ts) once a job waits for it. */
function hurry(warm: WarmSandbox): WarmSandbox {
  try {
    warm.sandbox.cgroup?.wake();
  } catch {
    // It boots on idle CPU still; its job's own wake (run.ts) refuses the job if that fails too.
  }
  return warm;
}

export class WarmPool {
  /** The memory cap each policy's next warm sandboxes are booted for. */
  private readonly wanted = new Map<NetPolicy, number>();
  private readonly idle = new Map<NetPolicy, WarmSandbox[]>();
  private readonly booting = new Map<NetPolicy, Set<Promise<WarmSandbox | undefined>>>();
  private readonly taken = new Map<string, WarmSandbox>();
  private closed = false;
  /** The last boot failure, for status and tests. */
  lastError: Error | undefined;

  constructor(
    private readonly boot: Boot,
    private readonly removeFolder: (folder: JobFolder) => void,
    /** How many idle sandboxes each policy keeps (the jobs the Link runs at once). */
    private readonly depth = 1,
  ) {}

  private idleOf(net: NetPolicy): WarmSandbox[] {
    let list = this.idle.get(net);
    if (!list) this.idle.set(net, (list = []));
    return list;
  }

  private bootingOf(net: NetPolicy): Set<Promise<WarmSandbox | undefined>> {
    let set = this.booting.get(net);
    if (!set) this.booting.set(net, (set = new Set()));
    return set;
  }

  /** Asks for warm sandboxes of this policy and cap from now on; idle ones of another cap go. */
  want(net: NetPolicy, memBytes: number): void {
    this.wanted.set(net, memBytes);
    const list = this.idleOf(net);
    for (const warm of list.filter((w) => w.memBytes !== memBytes)) {
      list.splice(list.indexOf(warm), 1);
      void this.discard(warm);
    }
  }

  /** Boots, in the background, the sandboxes wanted and not there yet. */
  arm(): void {
    if (this.closed) return;
    for (const [net, memBytes] of this.wanted) {
      const list = this.idleOf(net);
      const booting = this.bootingOf(net);
      for (let n = list.length + booting.size; n < this.depth; n++) {
        const boot: Promise<WarmSandbox | undefined> = this.boot(net, memBytes).then(
          async (warm) => {
            booting.delete(boot);
            if (this.closed || this.wanted.get(net) !== memBytes) {
              await this.discard(warm);
              // Another cap was asked for meanwhile.
              this.arm();
              return undefined;
            }
            list.push(warm);
            void warm.ready.then((ready) => {
              const at = list.indexOf(warm);
              if (!ready && at >= 0) {
                list.splice(at, 1);
                void this.discard(warm);
              }
            });
            return warm;
          },
          (err: unknown) => {
            booting.delete(boot);
            this.lastError = err instanceof Error ? err : new Error(String(err));
            return undefined;
          },
        );
        booting.add(boot);
      }
    }
  }

  /** The folder of a ready sandbox of exactly this policy and cap, now reserved for one job; or undefined. */
  take(net: NetPolicy, memBytes: number): JobFolder | undefined {
    const list = this.idleOf(net);
    const at = list.findIndex((w) => w.memBytes === memBytes && alive(w));
    if (at < 0) return undefined;
    const [warm] = list.splice(at, 1);
    this.taken.set(warm!.folder.id, warm!);
    return warm!.folder;
  }

  /**
   * Like `take`, but when none is ready and one of this policy and cap is on its way (booting, or
   * booted and not ready yet), waits for it, at most `waitMs`: it is ready sooner than a cold start.
   */
  async takeSoon(net: NetPolicy, memBytes: number, waitMs: number): Promise<JobFolder | undefined> {
    const now = this.take(net, memBytes);
    if (now || this.closed) return now;
    // A job waits on these now: they boot at the sandbox's weight, no longer on idle CPU alone.
    const coming = [
      ...[...this.bootingOf(net)].map((boot) => boot.then((warm) => warm && hurry(warm).ready)),
      ...this.idleOf(net)
        .filter((warm) => warm.memBytes === memBytes && !warm.isReady)
        .map((warm) => hurry(warm).ready),
    ];
    if (!coming.length) return undefined;
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<void>((resolve) => (timer = setTimeout(resolve, waitMs)));
    await Promise.race([...coming, late]);
    clearTimeout(timer);
    return this.take(net, memBytes);
  }

  /** The warm sandbox a folder from `take` belongs to (handed over once). */
  claim(folder: JobFolder): WarmSandbox | undefined {
    const warm = this.taken.get(folder.id);
    this.taken.delete(folder.id);
    return warm;
  }

  /** A taken folder removed without its job running: its sandbox goes with it. */
  release(folder: JobFolder): Promise<void> {
    const warm = this.claim(folder);
    return warm ? warm.destroy() : Promise.resolve();
  }

  private allBooting(): Promise<WarmSandbox | undefined>[] {
    return [...this.booting.values()].flatMap((set) => [...set]);
  }

  private allIdle(): WarmSandbox[] {
    return [...this.idle.values()].flat();
  }

  /** Waits until every wanted sandbox is booted and ready (or failed). */
  async ready(): Promise<boolean> {
    for (let boots = this.allBooting(); boots.length; boots = this.allBooting()) await Promise.all(boots);
    const results = await Promise.all(this.allIdle().map((warm) => warm.ready));
    return results.every(Boolean) && [...this.wanted.keys()].every((net) => this.idleOf(net).length >= this.depth);
  }

  /** The idle sandboxes, for measuring what they cost. */
  idleSandboxes(): WarmSandbox[] {
    return this.allIdle();
  }

  async close(): Promise<void> {
    this.closed = true;
    const booted = await Promise.all(this.allBooting());
    const all = [...this.allIdle(), ...this.taken.values(), ...booted.filter((w): w is WarmSandbox => Boolean(w))];
    this.idle.clear();
    this.taken.clear();
    await Promise.allSettled([...new Set(all)].map((warm) => this.discard(warm)));
  }

  private async discard(warm: WarmSandbox): Promise<void> {
    await warm.destroy().catch(() => undefined);
    this.removeFolder(warm.folder);
  }
}
