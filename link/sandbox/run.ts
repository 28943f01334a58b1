// Runs one tool in the sandbox and turns what happened into the job result. The chain per job is
// sh → bwrap → node, one process image replacing the next (exec, no extra process), so the Link
// spawns bwrap directly. The `sh` is a standby started ahead of the job and already in a
// fresh job cgroup: joining a cgroup waits for an RCU grace period (about 10 ms here), so it is
// done before the job arrives and the sandbox is born inside its limits. With `warm`, a job usually
// skips all of that: it runs in a sandbox booted for it beforehand (./warm.ts).
import { randomBytes } from "node:crypto";
import { chownSync, copyFileSync, linkSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import { rm } from "node:fs/promises";
import type { Socket } from "node:net";
import path from "node:path";
import type { Readable, Writable } from "node:stream";
import {
  BOOT_FILE,
  bwrapArgs,
  nodeFlags,
  prepareSystemTree,
  resolveRuntime,
  SANDBOX_NODE,
  type Runtime,
} from "./bwrap";
import { detectCgroups, JobCgroup, removeJobCgroups, type CgroupSupport } from "./cgroup";
import { collect, refused, SandboxPid, type Started } from "./collect";
import { fetchWasmFiles, type WasmFile } from "./fetch-wasm";
import { defaultBase, removeEmptyScopes, SandboxFolder, scopeOf } from "./folders";
import { DEFAULT_ALLOWED_HOSTS, LIMIT_DEFAULTS, type JobResult, type Limits, type NetPolicy } from "./policy";
import { bootScript, sandboxWasmPath, warmScript, wasmFileName, type AllowedWasm } from "./preload";
import { startProxy, type EgressProxy } from "./proxy";
import type { JobFolder, SandboxJob, SandboxOptions } from "./sandbox-types";
import { settledOrLate } from "./settled";
import { Spawner } from "./spawner";
import { ARGS_FD, INFO_FD, SANDBOX_GID, SANDBOX_UID, setRef, startStandby, type Standby } from "./standby";
import { alive, CONTROL_FD, readiness, WARM_FILE, WarmPool, type WarmSandbox } from "./warm";

export { refused };
export type { JobFolder, SandboxJob, SandboxOptions } from "./sandbox-types";

/** A job running this long no longer starts up, so the next standby may be made beside it. */
const NEXT_STANDBY_AFTER_MS = 250;
/** The longest a finished job's background work waits for its result to be handed on. */
const HOUSEKEEPING_WAIT_MS = 500;
/** How long a job waits for its warm sandbox still booting before it starts cold instead. */
const WARM_WAIT_MS = 2_000;
/** Only without a pids cgroup; per-uid, so it is shared by every job of this Link. */
const RLIMIT_NPROC = 512;
/**
 * Without a memory cgroup, RLIMIT_DATA bounds what a tool can allocate outside V8's heap. Node 24
 * reserves about 570 MiB of private writable address space before running anything (measured
 * here), so the limit is that baseline plus the job's cap: a bound, not the exact cap.
 */
const NODE_DATA_BASELINE = 640 * 1024 * 1024;

export class Sandbox {
  readonly runtime: Runtime;
  readonly cgroups: CgroupSupport;
  /** How many sandboxes this Link has started, for status and for proving a refused job never ran. */
  sandboxesStarted = 0;
  /** How many of those jobs ran in a sandbox booted ahead of them. */
  warmJobsRun = 0;
  private readonly folder: SandboxFolder;
  private readonly base: string;
  private readonly systemTreeDir: string;
  /** The WebAssembly modules fetch compiles, found once (first job with a network). */
  private fetchWasm: Promise<WasmFile[]> | undefined;
  private readonly pending = new Set<Promise<unknown>>();
  private standby: Standby | undefined;
  private standbyError: Error | undefined;
  private closed = false;
  /** Sandboxes booted ahead of their job (`options.warm`). */
  readonly warm: WarmPool | undefined;
  /** With `warm` (a Link that keeps running), standby shells come from a helper process (./spawner.ts). */
  private readonly spawner: Spawner | undefined;

  private constructor(
    private readonly options: SandboxOptions,
    base: string,
    folder: SandboxFolder,
    runtime: Runtime,
    cgroups: CgroupSupport,
  ) {
    this.runtime = runtime;
    this.cgroups = cgroups;
    this.base = base;
    this.folder = folder;
    this.systemTreeDir = path.join(this.folder.dir, "sys");
    this.spawner = options.warm ? new Spawner() : undefined;
    if (options.warm)
      this.warm = new WarmPool(
        (net, memBytes) => this.bootWarm(net, memBytes),
        (f) => this.removeFolder(f),
        options.warmDepth ?? 1,
      );
  }

  /**
   * Resolves the runtime and the Link's cgroups, claims this Sandbox's folder, clears what dead
   * Sandboxes left behind (their folders and job cgroups, once their locks are ours), readies a
   * standby (and, with `warm`, boots a `deny` sandbox at the default cap).
   */
  static async create(options: SandboxOptions = {}): Promise<Sandbox> {
    const runtime = resolveRuntime({ node: options.node });
    const cgroups = options.cgroups ?? detectCgroups();
    const base = options.workRoot ?? defaultBase();
    const scope = scopeOf(options.linkHome);
    const claimed = SandboxFolder.claim(base, scope);
    const sandbox = new Sandbox(options, base, claimed.folder, runtime, cgroups);
    try {
      const stuck = await removeJobCgroups(cgroups, new Set(claimed.abandoned.map((a) => a.id)));
      for (const abandoned of claimed.abandoned) {
        if (stuck.has(abandoned.id)) abandoned.keep();
        else abandoned.discard();
      }
      removeEmptyScopes(base, scope);
      sandbox.runtime.systemTree = prepareSystemTree(sandbox.runtime, sandbox.systemTreeDir);
      sandbox.prepareStandby();
      sandbox.warm?.want("deny", LIMIT_DEFAULTS.mem_bytes);
      sandbox.warm?.arm();
    } catch (err) {
      for (const abandoned of claimed.abandoned) abandoned.keep();
      await sandbox.close();
      throw err;
    }
    return sandbox;
  }

  /** This Sandbox's own folder (job folders, the prepared /usr); it exists while the Sandbox is open. */
  get folderPath(): string {
    return this.folder.dir;
  }

  private get asRoot(): boolean {
    return process.getuid?.() === 0;
  }

  /**
   * Makes an empty job folder; the sandbox's uid may enter `root`, nobody else but the Link. Given
   * the job's policy and limits (with `warm`), it is the folder of a sandbox already booted for
   * exactly them when one is ready (its /job: what is written here before `run` is what the tool sees).
   */
  newJobFolder(job?: { net: NetPolicy; limits: Limits }): JobFolder {
    if (job && this.warm && !this.closed) {
      this.warm.want(job.net, job.limits.mem_bytes);
      const folder = this.warm.take(job.net, job.limits.mem_bytes);
      if (folder) return folder;
    }
    const id = `${Date.now().toString(36)}-${randomBytes(6).toString("hex")}`;
    const root = path.join(this.folder.dir, `job-${id}`);
    const files = path.join(root, "files");
    mkdirSync(root, { mode: 0o700 });
    mkdirSync(files, { mode: 0o755 });
    mkdirSync(path.dirname(path.join(files, BOOT_FILE)), { mode: 0o755 });
    if (this.asRoot) chownSync(root, SANDBOX_UID, SANDBOX_GID);
    return { id, root, files };
  }

  /**
   * The folder for a job: `newJobFolder`'s, except that when its warm sandbox is still booting it
   * waits for that one (at most WARM_WAIT_MS) rather than starting cold.
   */
  async jobFolder(job: { net: NetPolicy; limits: Limits }): Promise<JobFolder> {
    if (this.warm && !this.closed) {
      this.warm.want(job.net, job.limits.mem_bytes);
      const folder = await this.warm.takeSoon(job.net, job.limits.mem_bytes, WARM_WAIT_MS);
      if (folder) return folder;
    }
    return this.newJobFolder();
  }

  /** Removes a job's folder (and its unused warm sandbox) once `settled` (see SandboxJob), in the background. */
  removeJobFolder(folder: JobFolder, settled?: Promise<unknown>): void {
    this.afterSettled(settled, () => {
      if (this.warm) this.track(this.warm.release(folder));
      this.removeFolder(folder);
      this.armWarm();
    });
  }

  /** Runs `work` now without `settled`, else once it settles (at most HOUSEKEEPING_WAIT_MS); tracked. */
  private afterSettled(settled: Promise<unknown> | undefined, work: () => void): void {
    if (!settled) return work();
    this.track(settledOrLate(settled, HOUSEKEEPING_WAIT_MS).then(work));
  }

  /** In the background (`idle()` and `close()` wait for it): a job's result need not wait for its files to go. */
  private removeFolder(folder: JobFolder): void {
    this.track(rm(folder.root, { recursive: true, force: true }));
  }

  /** Waits for background cleanups (cgroups, proxies) of finished jobs and for the next standby to be ready. */
  async idle(): Promise<void> {
    await holdingTheLoop(async () => {
      while (this.pending.size) await Promise.allSettled([...this.pending]);
      await this.standby?.joined.catch(() => undefined);
    });
  }

  /** Boots the warm sandboxes wanted (`deny` at the default cap, else those of the last jobs) and waits until they are ready. */
  async warmUp(job?: { net: NetPolicy; limits: Limits }): Promise<boolean> {
    if (!this.warm) return false;
    if (job) this.warm.want(job.net, job.limits.mem_bytes);
    this.warm.arm();
    const warm = this.warm;
    return holdingTheLoop(() => warm.ready());
  }

  /** Stops the standby and the warm sandboxes and waits for cleanups; the Sandbox runs no more jobs. */
  async close(): Promise<void> {
    this.closed = true;
    const standby = this.standby;
    this.standby = undefined;
    if (standby) {
      setRef(standby.child, true);
      standby.child.kill("SIGKILL");
      await Promise.allSettled([standby.joined, new Promise((resolve) => standby.child.once("close", resolve))]);
      await standby.cgroup?.remove().catch(() => undefined);
    }
    await this.warm?.close();
    await this.idle();
    await this.spawner?.close();
    this.runtime.systemTree = undefined;
    this.folder.release();
  }

  /** A standby shell in a fresh job cgroup made with the cap `memBytes` (`control`: with warm.cjs's descriptor). */
  private makeStandby(memBytes: number, control = false): Standby {
    const cgroup = JobCgroup.create(this.cgroups, this.folder.id, `s${randomBytes(6).toString("hex")}`, memBytes);
    // With a cgroup the line starts the same for every job: bwrap, then Node and its fixed flags
    // (without one, prlimit's per-job limits come first).
    const fixed = cgroup ? this.fixedCommandStart() : [];
    return startStandby({ fixed, cgroup, control, asRoot: this.asRoot, spawner: this.spawner });
  }

  private prepareStandby(): void {
    if (this.closed || this.standby) return;
    try {
      // Made with the default cap, which most jobs keep, so a job usually needs no cgroup write.
      this.standby = this.makeStandby(LIMIT_DEFAULTS.mem_bytes);
      this.standbyError = undefined;
    } catch (err) {
      this.standbyError = err as Error;
    }
  }

  /** The ready standby (made now when none is waiting); `run` starts the next one. */
  private async takeStandby(): Promise<Standby> {
    const stale = this.standby;
    if (!stale || stale.child.exitCode !== null || stale.child.signalCode !== null) {
      if (stale) this.track(stale.cgroup?.remove() ?? Promise.resolve());
      this.standby = undefined;
      this.prepareStandby();
    }
    const standby = this.standby;
    this.standby = undefined;
    if (!standby) throw this.standbyError ?? new Error("no standby");
    setRef(standby.child, true);
    try {
      await standby.joined;
      return standby;
    } catch {
      // Its spawner ended before it was up, or its cgroup refused it: once more, from scratch.
      standby.child.kill("SIGKILL");
      this.track(standby.cgroup?.remove() ?? Promise.resolve());
      const again = this.makeStandby(LIMIT_DEFAULTS.mem_bytes);
      setRef(again.child, true);
      await again.joined;
      return again;
    }
  }

  /** Lays the preload (and the fetch modules it allows) in a job folder; starts the proxy a network policy needs. */
  private async prepareFolder(folder: JobFolder, net: NetPolicy): Promise<EgressProxy | undefined> {
    const wasm = net === "deny" ? [] : await this.layFetchWasm(folder);
    writeFileSync(path.join(folder.files, BOOT_FILE), bootScript(net, wasm), { flag: "wx", mode: 0o644 });
    if (net === "deny") return undefined;
    return startProxy(path.join(folder.root, "proxy.sock"), {
      net,
      allowedHosts: net === "public" ? ["*"] : (this.options.allowedHosts ?? DEFAULT_ALLOWED_HOSTS),
      hosts: this.options.hosts,
      resolve: this.options.resolve,
    });
  }

  /** A sandbox for the next job of this policy and cap: started now, waiting in warm.cjs. */
  private async bootWarm(net: NetPolicy, memBytes: number): Promise<WarmSandbox> {
    const folder = this.newJobFolder();
    let proxy: EgressProxy | undefined;
    let standby: Standby | undefined;
    const destroy = async () => {
      if (standby) {
        setRef(standby.child, true);
        standby.child.kill("SIGKILL");
        if (started?.pid.value) killQuietly(started.pid.value);
        standby.cgroup?.killAll();
        if (standby.child.exitCode === null && standby.child.signalCode === null)
          await new Promise((resolve) => standby!.child.once("close", resolve));
      }
      await Promise.allSettled([proxy?.close(), standby?.cgroup?.remove()]);
    };
    let started: Started | undefined;
    try {
      if (this.closed) throw new Error("the sandbox is closed");
      proxy = await this.prepareFolder(folder, net);
      writeFileSync(path.join(folder.files, WARM_FILE), warmScript(), { flag: "wx", mode: 0o644 });
      standby = this.makeStandby(memBytes, true);
      await standby.joined;
      started = this.launch(standby, { folder, entry: WARM_FILE, net, memBytes, args: [folder.id] }, proxy?.socketPath);
      setRef(standby.child, false);
      const control = (standby.child.stdio as unknown as Socket[])[CONTROL_FD]!;
      control.on("error", () => {});
      const warm: WarmSandbox = {
        net,
        memBytes,
        folder,
        sandbox: started,
        control,
        proxy,
        destroy,
        isReady: false,
        ready: Promise.resolve(false),
      };
      warm.ready = readiness(warm, (ready) => (warm.isReady = ready));
      return warm;
    } catch (err) {
      await destroy();
      this.removeFolder(folder);
      throw err;
    }
  }

  private armWarm(): void {
    if (this.warm && !this.closed) setImmediate(() => this.warm?.arm());
  }

  async run(job: SandboxJob): Promise<JobResult> {
    const started = performance.now();
    const warm = this.warm?.claim(job.folder);
    if (warm) {
      if (alive(warm) && warm.net === job.net && warm.memBytes === job.limits.mem_bytes && !this.closed)
        return this.runWarm(job, warm, started);
      // Not the sandbox this job needs (or it died): the job runs cold in a fresh preload.
      await warm.destroy();
      rmSync(path.join(job.folder.files, path.dirname(BOOT_FILE)), { recursive: true, force: true });
      mkdirSync(path.join(job.folder.files, path.dirname(BOOT_FILE)), { mode: 0o755 });
    }
    let proxy: EgressProxy | undefined;
    let standby: Standby | undefined;
    const cleanup = async () => {
      await Promise.allSettled([proxy?.close(), standby?.cgroup?.remove()]);
    };
    let sandbox: Started;
    try {
      if (this.closed) throw new Error("the sandbox is closed");
      proxy = await this.prepareFolder(job.folder, job.net);
      standby = await this.takeStandby();
      standby.cgroup?.limitMemory(job.limits.mem_bytes);
      standby.cgroup?.wake();
      sandbox = this.launch(
        standby,
        { folder: job.folder, entry: job.entry, net: job.net, memBytes: job.limits.mem_bytes },
        proxy?.socketPath,
        job.input,
      );
      this.sandboxesStarted += 1;
      job.running?.();
    } catch (err) {
      standby?.child.kill("SIGKILL");
      await cleanup();
      return refused(
        started,
        "link.sandbox.refused",
        `This Link cannot enforce the job's policy: ${(err as Error).message}`,
      );
    }
    // The next standby is made once this job is over, or once it has run NEXT_STANDBY_AFTER_MS (so a
    // job arriving meanwhile finds one): spawning it (a fork of the Link) and making its cgroup
    // would otherwise compete with the starting sandbox for the CPU (measured: p50 ratio ~1.55 → ~1.46).
    const next = this.options.single ? undefined : setTimeout(() => this.prepareStandby(), NEXT_STANDBY_AFTER_MS);
    next?.unref();
    const { result: ran, gone } = collect(sandbox, job, started);
    const result = await withEgress(ran, gone, proxy);
    clearTimeout(next);
    this.track(gone.then(cleanup));
    this.afterSettled(job.settled, () => {
      if (!this.options.single) this.prepareStandby();
      this.armWarm();
    });
    return result;
  }

  /** The job in the sandbox booted for it: its cap set now, its wall clock from now, its entry loaded. */
  private async runWarm(job: SandboxJob, warm: WarmSandbox, started: number): Promise<JobResult> {
    const { child, cgroup } = warm.sandbox;
    try {
      cgroup?.limitMemory(job.limits.mem_bytes);
      cgroup?.wake();
    } catch (err) {
      await warm.destroy();
      return refused(
        started,
        "link.sandbox.refused",
        `This Link cannot enforce the job's policy: ${(err as Error).message}`,
      );
    }
    this.sandboxesStarted += 1;
    this.warmJobsRun += 1;
    setRef(child, true);
    warm.control.end(JSON.stringify({ entry: job.entry }));
    child.stdin!.end(job.input);
    job.running?.();
    const { result: ran, gone } = collect(warm.sandbox, job, started);
    const result = await withEgress(ran, gone, warm.proxy);
    this.afterSettled(job.settled, () => {
      this.track(gone.then(warm.destroy));
      this.armWarm();
    });
    return result;
  }

  /** Puts the modules Node's fetch compiles into the job folder, and says where the preload finds them. */
  private async layFetchWasm(folder: JobFolder): Promise<AllowedWasm[]> {
    this.fetchWasm ??= fetchWasmFiles(this.runtime.node, this.base);
    let files: WasmFile[];
    try {
      files = await this.fetchWasm;
    } catch (err) {
      this.fetchWasm = undefined;
      throw err;
    }
    return files.map(({ file, bytes }, i) => {
      const inJob = path.join(folder.files, wasmFileName(i));
      try {
        linkSync(file, inJob);
      } catch {
        copyFileSync(file, inJob);
      }
      return { file: sandboxWasmPath(i), bytes };
    });
  }

  /** Cleanup that runs after the result is returned; `idle()` and `close()` wait for it. */
  private track(work: Promise<unknown>): void {
    const done: Promise<unknown> = work.catch(() => undefined).finally(() => this.pending.delete(done));
    this.pending.add(done);
  }

  /** What every cgroup job's command line starts with: everything up to Node's per-job flags. */
  private fixedCommandStart(): string[] {
    const flags = nodeFlags({ entry: "x.js", memBytes: LIMIT_DEFAULTS.mem_bytes });
    const perJob = flags.findIndex((flag) => flag.startsWith("--max-old-space-size="));
    return [this.runtime.bwrap, "--args", String(ARGS_FD), "--", SANDBOX_NODE, ...flags.slice(0, perJob)];
  }

  private commandLine(
    cmd: LaunchCommand,
    cgroup: JobCgroup | null,
    proxySocket: string | undefined,
  ): { line: string[]; bwrapOptions: string[] } {
    const command = {
      jobDir: cmd.folder.files,
      entry: cmd.entry,
      net: cmd.net,
      memBytes: cmd.memBytes,
      proxySocket,
      infoFd: INFO_FD,
    };
    const args = bwrapArgs(this.runtime, command, [SANDBOX_NODE, ...nodeFlags(command), ...(cmd.args ?? [])]);
    // Without a cgroup the per-job rlimits come from prlimit, one more exec in the chain.
    const prefix: string[] = [];
    if (!cgroup) {
      const data = NODE_DATA_BASELINE + cmd.memBytes;
      prefix.push(this.runtime.prlimit, `--nproc=${RLIMIT_NPROC}:${RLIMIT_NPROC}`, `--data=${data}:${data}`, "--");
    }
    const split = args.indexOf("--");
    const bwrapOptions = args.slice(0, split);
    const line = [...prefix, this.runtime.bwrap, "--args", String(ARGS_FD), ...args.slice(split)];
    for (const arg of line) {
      if (arg === "" || arg.includes("\n")) throw new Error(`unsafe argument ${JSON.stringify(arg)}`);
    }
    for (const arg of bwrapOptions) {
      if (arg.includes("\0")) throw new Error(`unsafe argument ${JSON.stringify(arg)}`);
    }
    return { line, bwrapOptions };
  }

  /**
   * Hands the standby the rest of its command line, so it becomes bwrap and then Node. `input`: the
   * tool's stdin, closed after it; without it stdin stays open for a warm sandbox's job.
   */
  private launch(standby: Standby, cmd: LaunchCommand, proxySocket: string | undefined, input?: Uint8Array): Started {
    const { child, cgroup, fixed } = standby;
    const { line, bwrapOptions } = this.commandLine(cmd, cgroup, proxySocket);
    if (line.length <= fixed.length || fixed.some((arg, i) => line[i] !== arg)) {
      child.kill("SIGKILL");
      throw new Error("the standby's command line does not match the job's");
    }
    const header = Buffer.from(`${line.slice(fixed.length).join("\n")}\n\n`);
    const options = child.stdio[ARGS_FD] as Writable;
    options.on("error", () => {});
    options.end(Buffer.from(bwrapOptions.map((arg) => `${arg}\0`).join("")));
    child.stdin!.on("error", () => {});
    if (input) child.stdin!.end(Buffer.concat([header, input]));
    else child.stdin!.write(header);
    return { child, cgroup, pid: new SandboxPid(child.stdio[INFO_FD] as Readable, cgroup?.weighsCpu ?? false) };
  }
}

/** What one sandbox runs: `entry` under Node's flags for `net` and `memBytes`, with `args` after it. */
type LaunchCommand = { folder: JobFolder; entry: string; net: NetPolicy; memBytes: number; args?: string[] };

/**
 * The result with what the tool tried on the network (`net: deny`: nothing), recorded once every
 * process of the sandbox is gone, so no attempt made before its end is missing.
 */
async function withEgress(
  result: Promise<JobResult>,
  gone: Promise<void>,
  proxy: EgressProxy | undefined,
): Promise<JobResult> {
  if (!proxy) return { ...(await result), egress: [] };
  const [ran] = await Promise.all([result, gone]);
  return { ...ran, egress: proxy.record() };
}

function killQuietly(pid: number): void {
  try {
    process.kill(pid, "SIGKILL");
  } catch {
    // Gone already.
  }
}

/**
 * Runs `wait` with a reference on the event loop: what a Sandbox waits for (booting standbys and
 * warm sandboxes, their pipes) keeps none, and a program with nothing else pending would otherwise
 * exit mid-await.
 */
async function holdingTheLoop<T>(wait: () => Promise<T>): Promise<T> {
  const hold = setInterval(() => {}, 60_000);
  try {
    return await wait();
  } finally {
    clearInterval(hold);
  }
}
