// Runs one tool in the sandbox and turns what happened into the job result. The chain per job is
// sh → bwrap → node, one process image replacing the next (exec, no extra process), so the Link
// spawns bwrap directly. The `sh` is a standby started ahead of the job and already in a
// fresh job cgroup: joining a cgroup waits for an RCU grace period (about 10 ms here), so it is
// done before the job arrives and the sandbox is born inside its limits.
import { spawn, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { chownSync, copyFileSync, linkSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import type { Readable, Writable } from "node:stream";
import { BOOT_FILE, bwrapArgs, EMPTY_ENV, nodeFlags, prepareSystemTree, resolveRuntime, SANDBOX_NODE, type Runtime } from "./bwrap";
import { detectCgroups, JobCgroup, removeJobCgroups, type CgroupSupport } from "./cgroup";
import { fetchWasmFiles, type WasmFile } from "./fetch-wasm";
import { defaultBase, removeEmptyScopes, SandboxFolder, scopeOf } from "./folders";
import { JsonEndDetector } from "./json-end";
import {
  DEFAULT_ALLOWED_HOSTS,
  LIMIT_CAPS,
  LIMIT_DEFAULTS,
  STDERR_MAX_BYTES,
  STDOUT_MAX_BYTES,
  type JobResult,
  type JobStatus,
  type Limits,
  type NetPolicy,
} from "./policy";
import { bootScript, sandboxWasmPath, wasmFileName, type AllowedWasm } from "./preload";
import { startProxy, type EgressProxy } from "./proxy";

export type SandboxOptions = {
  /** The Node that runs tools (≥ 22); resolved automatically when absent. */
  node?: string;
  /** Hostname patterns `openvibe-only` may reach. */
  allowedHosts?: readonly string[];
  /** Operator name → "address:port" overrides for the egress proxy (tests map a local server here). */
  hosts?: Readonly<Record<string, string>>;
  resolve?: (host: string) => Promise<string[]>;
  /**
   * The Link's home (`openvibe-link run` passes it): this Sandbox's folder is made in that Link's own
   * folder, `<workRoot>/link-<hash of the home>/`. Absent (`openvibe-link exec`): a private folder
   * for this invocation under `<workRoot>/exec/`. Either way it is locked while this process lives
   * and removed by `close()`; one left by a dead process is removed by the next Sandbox.
   */
  linkHome?: string;
  /** The folder every Link of this user keeps its Sandbox folders in; `<tmpdir>/openvibe-link-<uid>` by default. */
  workRoot?: string;
  /** Force a memory enforcement (tests); detected by default. */
  cgroups?: CgroupSupport;
};

/** A fresh job folder: `root` is private to the runner, `files` is what the tool sees as /job. */
export type JobFolder = { id: string; root: string; files: string };

/** `signal` withdraws the job: the sandbox is killed at once and the run ends `cancelled`. */
export type SandboxJob = { folder: JobFolder; entry: string; input: Uint8Array; net: NetPolicy; limits: Limits; signal?: AbortSignal };

/** Unprivileged ids for the sandbox when the Link runs as root (nobody/nogroup). */
const SANDBOX_UID = 65534;
const SANDBOX_GID = 65534;
/**
 * After one complete JSON value on stdout the job is over: the tool is ended at once rather than
 * waited for (Node's own teardown costs about 5 ms, and a tool may leave a timer or socket open).
 * Its `exit` is then null. A tool that closes stdout without a complete value gets this long to exit.
 */
const EXIT_GRACE_MS = 100;
const INFO_FD = 3;
/** A job running this long no longer starts up, so the next standby may be made beside it. */
const NEXT_STANDBY_AFTER_MS = 250;
/** bwrap reads its (long) option list from here in one read; the shell reads only the short rest. */
const ARGS_FD = 4;
/** Caps every sandbox gets, set by the standby shell before it becomes bwrap. */
const RLIMIT_FSIZE_BLOCKS = 2048; // 512-byte blocks: 1 MiB
const RLIMIT_NOFILE = 64;
/**
 * CPU seconds: above any wall_ms a job may ask (GC threads add CPU time), so it never ends a job
 * early; it is the kernel's bound that still holds if the Link dies and nobody enforces wall_ms.
 */
const RLIMIT_CPU_SECONDS = Math.ceil((LIMIT_CAPS.wall_ms * 2) / 1000) + 1;
/** Only without a pids cgroup; per-uid, so it is shared by every job of this Link. */
const RLIMIT_NPROC = 512;
/**
 * Without a memory cgroup, RLIMIT_DATA bounds what a tool can allocate outside V8's heap. Node 24
 * reserves about 570 MiB of private writable address space before running anything (measured
 * here), so the limit is that baseline plus the job's cap: a bound, not the exact cap.
 */
const NODE_DATA_BASELINE = 640 * 1024 * 1024;
/**
 * The standby: sets the fixed rlimits, reads the rest of the command line (one argument per line
 * up to an empty line) after the fixed start it was given as arguments, then becomes it (exec).
 * Whatever follows on stdin is the tool's input. No line at all means the Link went away. (dash
 * reads a line one byte per read(2); the fixed start is most of the line, so it is not sent.)
 */
const STANDBY_SCRIPT = [
  `ulimit -n ${RLIMIT_NOFILE}; ulimit -f ${RLIMIT_FSIZE_BLOCKS}; ulimit -c 0; ulimit -t ${RLIMIT_CPU_SECONDS}`,
  "n=0",
  'while IFS= read -r a && [ -n "$a" ]; do set -- "$@" "$a"; n=$((n + 1)); done',
  '[ "$n" -gt 0 ] || exit 125',
  'exec "$@"',
].join("; ");

/** `fixed` is the start of the command line the standby already holds (it is not sent again). */
type Standby = { child: ChildProcess; cgroup: JobCgroup | null; joined: Promise<void>; fixed: string[] };

export class Sandbox {
  readonly runtime: Runtime;
  readonly cgroups: CgroupSupport;
  /** How many sandboxes this Link has started, for status and for proving a refused job never ran. */
  sandboxesStarted = 0;
  private readonly folder: SandboxFolder;
  private readonly base: string;
  private readonly systemTreeDir: string;
  /** The WebAssembly modules fetch compiles, found once (first job with a network). */
  private fetchWasm: Promise<WasmFile[]> | undefined;
  private readonly pending = new Set<Promise<unknown>>();
  private standby: Standby | undefined;
  private standbyError: Error | undefined;
  private closed = false;

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
  }

  /**
   * Resolves the runtime and the Link's cgroups, claims this Sandbox's folder, clears what dead
   * Sandboxes left behind (their folders and job cgroups, once their locks are ours), readies a standby.
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

  /** Makes an empty job folder; the sandbox's uid may enter `root`, nobody else but the Link. */
  newJobFolder(): JobFolder {
    const id = `${Date.now().toString(36)}-${randomBytes(6).toString("hex")}`;
    const root = path.join(this.folder.dir, `job-${id}`);
    const files = path.join(root, "files");
    mkdirSync(root, { mode: 0o700 });
    mkdirSync(files, { mode: 0o755 });
    mkdirSync(path.dirname(path.join(files, BOOT_FILE)), { mode: 0o755 });
    if (this.asRoot) chownSync(root, SANDBOX_UID, SANDBOX_GID);
    return { id, root, files };
  }

  removeJobFolder(folder: JobFolder): void {
    rmSync(folder.root, { recursive: true, force: true });
  }

  /** Waits for background cleanups (cgroups, proxies) of finished jobs and for the next standby to be ready. */
  async idle(): Promise<void> {
    while (this.pending.size) await Promise.allSettled([...this.pending]);
    await this.standby?.joined.catch(() => undefined);
  }

  /** Stops the standby and waits for cleanups; the Sandbox runs no more jobs. */
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
    await this.idle();
    this.runtime.systemTree = undefined;
    this.folder.release();
  }

  private prepareStandby(): void {
    if (this.closed || this.standby) return;
    let cgroup: JobCgroup | null = null;
    try {
      // Made with the default cap, which most jobs keep, so a job usually needs no cgroup write.
      cgroup = JobCgroup.create(this.cgroups, this.folder.id, `s${randomBytes(6).toString("hex")}`, LIMIT_DEFAULTS.mem_bytes);
    } catch (err) {
      this.standbyError = err as Error;
      return;
    }
    this.standbyError = undefined;
    // With a cgroup the line starts the same for every job: bwrap, then Node and its fixed flags
    // (without one, prlimit's per-job limits come first).
    const fixed = cgroup ? this.fixedCommandStart() : [];
    const child = spawn("/bin/sh", ["-c", STANDBY_SCRIPT, "sh", ...fixed], {
      env: EMPTY_ENV,
      stdio: ["pipe", "pipe", "pipe", "pipe", "pipe"],
      ...(this.asRoot ? { uid: SANDBOX_UID, gid: SANDBOX_GID } : {}),
    });
    child.on("error", () => {});
    // A waiting standby must not keep the Link's process alive; it is ref'd again when taken.
    setRef(child, false);
    const joined = cgroup && child.pid ? cgroup.addAsync(child.pid) : Promise.resolve();
    joined.catch(() => {});
    this.standby = { child, cgroup, joined, fixed };
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
    await standby.joined;
    return standby;
  }

  async run(job: SandboxJob): Promise<JobResult> {
    const started = performance.now();
    let proxy: EgressProxy | undefined;
    let standby: Standby | undefined;
    const cleanup = async () => {
      await Promise.allSettled([proxy?.close(), standby?.cgroup?.remove()]);
    };
    try {
      if (this.closed) throw new Error("the sandbox is closed");
      const wasm = job.net === "deny" ? [] : await this.layFetchWasm(job.folder);
      writeFileSync(path.join(job.folder.files, BOOT_FILE), bootScript(job.net, wasm), { flag: "wx", mode: 0o644 });
      if (job.net !== "deny") {
        const socketPath = path.join(job.folder.root, "proxy.sock");
        proxy = await startProxy(socketPath, {
          net: job.net,
          allowedHosts: job.net === "public" ? ["*"] : (this.options.allowedHosts ?? DEFAULT_ALLOWED_HOSTS),
          hosts: this.options.hosts,
          resolve: this.options.resolve,
        });
      }
      standby = await this.takeStandby();
      standby.cgroup?.limitMemory(job.limits.mem_bytes);
    } catch (err) {
      standby?.child.kill("SIGKILL");
      await cleanup();
      return refused(started, "link.sandbox.refused", `This Link cannot enforce the job's policy: ${(err as Error).message}`);
    }
    // The next standby is made once this job is over, or once it has run NEXT_STANDBY_AFTER_MS (so a
    // job arriving meanwhile finds one): spawning it (a fork of the Link) and making its cgroup
    // would otherwise compete with the starting sandbox for the CPU (measured: p50 ratio ~1.55 → ~1.46).
    const next = setTimeout(() => this.prepareStandby(), NEXT_STANDBY_AFTER_MS);
    next.unref();
    const ran = await this.execute(job, standby, proxy?.socketPath, started);
    // What the tool tried on the network, as it stands now the tool is gone (`net: deny`: nothing).
    const result: JobResult = { ...ran, egress: proxy ? proxy.record() : [] };
    clearTimeout(next);
    this.prepareStandby();
    this.track(cleanup());
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

  private commandLine(job: SandboxJob, cgroup: JobCgroup | null, proxySocket: string | undefined): { line: string[]; bwrapOptions: string[] } {
    const args = bwrapArgs(this.runtime, {
      jobDir: job.folder.files,
      entry: job.entry,
      net: job.net,
      memBytes: job.limits.mem_bytes,
      proxySocket,
      infoFd: INFO_FD,
    });
    // Without a cgroup the per-job rlimits come from prlimit, one more exec in the chain.
    const prefix: string[] = [];
    if (!cgroup) {
      const data = NODE_DATA_BASELINE + job.limits.mem_bytes;
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

  private execute(job: SandboxJob, standby: Standby, proxySocket: string | undefined, started: number): Promise<JobResult> {
    const { child, cgroup } = standby;
    this.sandboxesStarted += 1;
    const { line, bwrapOptions } = this.commandLine(job, cgroup, proxySocket);
    const { fixed } = standby;
    if (line.length <= fixed.length || fixed.some((arg, i) => line[i] !== arg)) {
      child.kill("SIGKILL");
      throw new Error("the standby's command line does not match the job's");
    }
    const header = `${line.slice(fixed.length).join("\n")}\n\n`;
    const options = child.stdio[ARGS_FD] as Writable;
    options.on("error", () => {});
    options.end(Buffer.from(bwrapOptions.map((arg) => `${arg}\0`).join("")));
    child.stdin!.on("error", () => {});
    child.stdin!.end(Buffer.concat([Buffer.from(header), job.input]));
    const info = child.stdio[INFO_FD] as Readable;

    return new Promise<JobResult>((resolve) => {
      const stdout: Buffer[] = [];
      let stdoutBytes = 0;
      const stderr: Buffer[] = [];
      let stderrKept = 0;
      let stderrDropped = 0;
      let ended: "limit" | "timeout" | "complete" | "cancelled" | undefined;
      let sandboxPid: number | undefined;
      let infoText = "";
      const detector = new JsonEndDetector();
      let graceTimer: NodeJS.Timeout | undefined;

      const kill = () => {
        // The tool first: it is what must stop at once, and its exit is what closes the pipes.
        if (sandboxPid) {
          try {
            process.kill(sandboxPid, "SIGKILL");
          } catch {
            // Gone already, and with it its pid namespace.
          }
        }
        child.kill("SIGKILL");
        cgroup?.killAll();
      };
      const end = (why: "limit" | "timeout" | "complete" | "cancelled") => {
        ended ??= why;
        kill();
      };
      const wallTimer = setTimeout(() => end("timeout"), job.limits.wall_ms);
      const withdraw = () => end("cancelled");
      job.signal?.addEventListener("abort", withdraw, { once: true });
      if (job.signal?.aborted) withdraw();
      const graceThenEnd = () => {
        graceTimer ??= setTimeout(() => end("complete"), EXIT_GRACE_MS);
      };

      info.on("data", (chunk: Buffer) => {
        if (sandboxPid) return;
        infoText += chunk.toString("utf8");
        try {
          sandboxPid = (JSON.parse(infoText) as { "child-pid"?: number })["child-pid"];
        } catch {
          // Not all of it yet.
        }
      });
      info.on("error", () => {});

      child.stdout!.on("data", (chunk: Buffer) => {
        if (ended) return;
        stdoutBytes += chunk.length;
        if (stdoutBytes > STDOUT_MAX_BYTES) return end("limit");
        stdout.push(chunk);
        if (detector.push(chunk)) end("complete");
      });
      child.stdout!.on("end", graceThenEnd);
      child.stderr!.on("data", (chunk: Buffer) => {
        const room = STDERR_MAX_BYTES - 64 - stderrKept;
        if (room > 0) {
          const kept = chunk.subarray(0, room);
          stderr.push(kept);
          stderrKept += kept.length;
        }
        stderrDropped += Math.max(0, chunk.length - Math.max(0, room));
      });

      child.on("close", (code, signal) => {
        clearTimeout(wallTimer);
        clearTimeout(graceTimer);
        job.signal?.removeEventListener("abort", withdraw);
        const wall_ms = Math.round(performance.now() - started);
        let stderrText = Buffer.concat(stderr).toString("utf8");
        if (stderrDropped > 0) stderrText += `\n[openvibe-link: stderr truncated, ${stderrDropped} more bytes dropped]`;
        if (!sandboxPid) {
          return resolve(refused(started, "link.sandbox.unavailable", `The sandbox did not start: ${stderrText.trim() || `exit ${code ?? signal}`}`));
        }
        const exit = ended ? null : code;
        // The tool runs as its namespace's pid 1, so V8's abort() on its heap limit ends in a trap,
        // not always SIGABRT. Without a cgroup, RLIMIT_DATA surfaces as failed allocations.
        const heapOom = code !== 0 && /Reached heap limit|heap out of memory/.test(stderrText);
        const oom = cgroup ? cgroup.oomKilled() : code !== 0 && /ERR_MEMORY_ALLOCATION_FAILED|Failed to allocate memory|Array buffer allocation failed/.test(stderrText);
        let status: JobStatus;
        let output: unknown = null;
        if (ended === "cancelled") status = "cancelled";
        else if (oom || heapOom) status = "oom";
        else if (ended === "limit") status = "limit";
        else if (ended === "timeout") status = "timeout";
        else if (ended !== "complete" && code !== 0) status = "error";
        else {
          const parsed = parseOneJson(Buffer.concat(stdout));
          status = parsed.ok ? "ok" : "output";
          output = parsed.ok ? parsed.value : null;
        }
        resolve({ status, output, stderr: stderrText, exit, wall_ms, max_rss_bytes: cgroup?.peakBytes() ?? null });
      });
    });
  }
}

function setRef(child: ChildProcess, ref: boolean): void {
  for (const handle of [child, ...child.stdio]) {
    const h = handle as unknown as { ref?: () => void; unref?: () => void } | null;
    if (ref) h?.ref?.();
    else h?.unref?.();
  }
}

function parseOneJson(bytes: Buffer): { ok: true; value: unknown } | { ok: false } {
  try {
    const text = new TextDecoder("utf-8", { fatal: true }).decode(bytes);
    if (text.trim() === "") return { ok: false };
    return { ok: true, value: JSON.parse(text) };
  } catch {
    return { ok: false };
  }
}

export function refused(started: number, code: string, message: string): JobResult {
  return { status: "refused", output: null, stderr: message, exit: null, wall_ms: Math.round(performance.now() - started), max_rss_bytes: null, code };
}
