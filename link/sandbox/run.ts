// Runs one tool in the sandbox and turns what happened into the job result. The chain per job is
// sh → prlimit → bwrap → node, one process image replacing the next (exec, no extra process), so
// the Link spawns bwrap directly. The `sh` is a standby started ahead of the job and already in a
// fresh job cgroup: joining a cgroup waits for an RCU grace period (about 10 ms here), so it is
// done before the job arrives and the sandbox is born inside its limits.
import { spawn, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { chmodSync, chownSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import type { Readable } from "node:stream";
import { BOOT_FILE, bootScript, bwrapArgs, resolveRuntime, type Runtime } from "./bwrap";
import { detectCgroups, JobCgroup, sweepOrphanedJobs, type CgroupSupport } from "./cgroup";
import { JsonEndDetector } from "./json-end";
import {
  DEFAULT_ALLOWED_HOSTS,
  LIMIT_CAPS,
  STDERR_MAX_BYTES,
  STDOUT_MAX_BYTES,
  type JobResult,
  type JobStatus,
  type Limits,
  type NetPolicy,
} from "./policy";
import { startProxy, type EgressProxy } from "./proxy";

export type SandboxOptions = {
  /** The Node that runs tools (≥ 22); resolved automatically when absent. */
  node?: string;
  /** Hostname patterns `openvibe-only` may reach. */
  allowedHosts?: readonly string[];
  /** Operator name → "address:port" overrides for the egress proxy (tests map a local server here). */
  hosts?: Readonly<Record<string, string>>;
  resolve?: (host: string) => Promise<string[]>;
  /** Where job folders live; a private folder under the system temp dir by default. */
  workRoot?: string;
  /** Force a memory enforcement (tests); detected by default. */
  cgroups?: CgroupSupport;
};

/** A fresh job folder: `root` is private to the runner, `files` is what the tool sees as /job. */
export type JobFolder = { id: string; root: string; files: string };

export type SandboxJob = { folder: JobFolder; entry: string; input: Uint8Array; net: NetPolicy; limits: Limits };

/** Unprivileged ids for the sandbox when the Link runs as root (nobody/nogroup). */
const SANDBOX_UID = 65534;
const SANDBOX_GID = 65534;
/** After a complete JSON value, how long a tool gets to exit on its own before it is ended. */
const EXIT_GRACE_MS = 100;
const INFO_FD = 3;
const RLIMIT_FSIZE = 1024 * 1024;
const RLIMIT_NOFILE = 64;
/** Only without a pids cgroup; per-uid, so it is shared by every job of this Link. */
const RLIMIT_NPROC = 512;
/**
 * Without a memory cgroup, RLIMIT_DATA bounds what a tool can allocate outside V8's heap. Node 24
 * reserves about 570 MiB of private writable address space before running anything (measured
 * here), so the limit is that baseline plus the job's cap: a bound, not the exact cap.
 */
const NODE_DATA_BASELINE = 640 * 1024 * 1024;
/**
 * The standby: reads the command line, one argument per line up to an empty line, then becomes
 * it (exec). Whatever follows on stdin is the tool's input. No arguments: the Link went away.
 */
const STANDBY_SCRIPT = 'while IFS= read -r a && [ -n "$a" ]; do set -- "$@" "$a"; done; [ "$#" -gt 0 ] || exit 125; exec "$@"';

type Standby = { child: ChildProcess; cgroup: JobCgroup | null; joined: Promise<void> };

export class Sandbox {
  readonly runtime: Runtime;
  readonly cgroups: CgroupSupport;
  /** How many sandboxes this Link has started, for status and for proving a refused job never ran. */
  sandboxesStarted = 0;
  private readonly workRoot: string;
  private readonly pending = new Set<Promise<unknown>>();
  private standby: Standby | undefined;
  private standbyError: Error | undefined;
  private closed = false;

  private constructor(private readonly options: SandboxOptions) {
    this.runtime = resolveRuntime({ node: options.node });
    this.cgroups = options.cgroups ?? detectCgroups();
    this.workRoot = options.workRoot ?? path.join(os.tmpdir(), `openvibe-link-${process.getuid?.() ?? "user"}`);
    mkdirSync(this.workRoot, { recursive: true, mode: 0o711 });
    chmodSync(this.workRoot, 0o711);
  }

  /** Resolves the runtime and the Link's cgroups, clears what a dead Link left behind, readies a standby. */
  static async create(options: SandboxOptions = {}): Promise<Sandbox> {
    const sandbox = new Sandbox(options);
    await sweepOrphanedJobs(sandbox.cgroups);
    sandbox.prepareStandby();
    return sandbox;
  }

  private get asRoot(): boolean {
    return process.getuid?.() === 0;
  }

  /** Makes an empty job folder; the sandbox's uid may enter `root`, nobody else but the Link. */
  newJobFolder(): JobFolder {
    const id = `${Date.now().toString(36)}-${randomBytes(6).toString("hex")}`;
    const root = path.join(this.workRoot, `job-${id}`);
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

  /** Waits for background cleanups (cgroups, proxies) of finished jobs. */
  async idle(): Promise<void> {
    while (this.pending.size) await Promise.allSettled([...this.pending]);
  }

  /** Stops the standby and waits for cleanups; the Sandbox runs no more jobs. */
  async close(): Promise<void> {
    this.closed = true;
    const standby = this.standby;
    this.standby = undefined;
    if (standby) {
      standby.child.kill("SIGKILL");
      await Promise.allSettled([standby.joined, new Promise((resolve) => standby.child.once("close", resolve))]);
      await standby.cgroup?.remove().catch(() => undefined);
    }
    await this.idle();
  }

  private prepareStandby(): void {
    if (this.closed || this.standby) return;
    let cgroup: JobCgroup | null = null;
    try {
      cgroup = JobCgroup.create(this.cgroups, `s${randomBytes(6).toString("hex")}`, LIMIT_CAPS.mem_bytes);
    } catch (err) {
      this.standbyError = err as Error;
      return;
    }
    this.standbyError = undefined;
    const child = spawn("/bin/sh", ["-c", STANDBY_SCRIPT], {
      env: {},
      stdio: ["pipe", "pipe", "pipe", "pipe"],
      ...(this.asRoot ? { uid: SANDBOX_UID, gid: SANDBOX_GID } : {}),
    });
    child.on("error", () => {});
    const joined = cgroup && child.pid ? cgroup.addAsync(child.pid) : Promise.resolve();
    joined.catch(() => {});
    this.standby = { child, cgroup, joined };
  }

  /** The ready standby (made now when none is waiting); the next one is started right after. */
  private async takeStandby(): Promise<Standby> {
    if (!this.standby || this.standby.child.exitCode !== null || this.standby.child.signalCode !== null) {
      this.standby = undefined;
      this.prepareStandby();
    }
    const standby = this.standby;
    this.standby = undefined;
    if (!standby) throw this.standbyError ?? new Error("no standby");
    setImmediate(() => this.prepareStandby());
    await standby.joined;
    return standby;
  }

  async run(job: SandboxJob): Promise<JobResult> {
    const started = performance.now();
    (globalThis as any).T = [["start", started]];
    let proxy: EgressProxy | undefined;
    let standby: Standby | undefined;
    const cleanup = async () => {
      await Promise.allSettled([proxy?.close(), standby?.cgroup?.remove()]);
    };
    try {
      if (this.closed) throw new Error("the sandbox is closed");
      writeFileSync(path.join(job.folder.files, BOOT_FILE), bootScript(job.net), { flag: "wx", mode: 0o644 });
      if (job.net !== "deny") {
        const socketPath = path.join(job.folder.root, "proxy.sock");
        proxy = await startProxy(socketPath, {
          net: job.net,
          allowedHosts: job.net === "public" ? ["*"] : (this.options.allowedHosts ?? DEFAULT_ALLOWED_HOSTS),
          hosts: this.options.hosts,
          resolve: this.options.resolve,
        });
      }
      (globalThis as any).T.push(["boot", performance.now()]);
      standby = await this.takeStandby();
      (globalThis as any).T.push(["standby", performance.now()]);
      standby.cgroup?.limitMemory(job.limits.mem_bytes);
    } catch (err) {
      standby?.child.kill("SIGKILL");
      await cleanup();
      return refused(started, "link.sandbox.refused", `This Link cannot enforce the job's policy: ${(err as Error).message}`);
    }
    const result = await this.execute(job, standby, proxy?.socketPath, started);
    const done = cleanup().finally(() => this.pending.delete(done));
    this.pending.add(done);
    return result;
  }

  private commandLine(job: SandboxJob, cgroup: JobCgroup | null, proxySocket: string | undefined): string[] {
    const args = bwrapArgs(this.runtime, {
      jobDir: job.folder.files,
      entry: job.entry,
      net: job.net,
      memBytes: job.limits.mem_bytes,
      proxySocket,
      infoFd: INFO_FD,
    });
    // CPU seconds: generous against wall_ms (GC threads add CPU time), and a kernel bound that holds
    // even if the Link dies and nobody is left to enforce wall_ms.
    const cpu = Math.ceil((job.limits.wall_ms * 2) / 1000) + 1;
    const rlimits = [`--nofile=${RLIMIT_NOFILE}:${RLIMIT_NOFILE}`, `--fsize=${RLIMIT_FSIZE}:${RLIMIT_FSIZE}`, "--core=0:0", `--cpu=${cpu}:${cpu + 1}`];
    if (!cgroup) {
      const data = NODE_DATA_BASELINE + job.limits.mem_bytes;
      rlimits.push(`--nproc=${RLIMIT_NPROC}:${RLIMIT_NPROC}`, `--data=${data}:${data}`);
    }
    const line = [this.runtime.prlimit, ...rlimits, "--", this.runtime.bwrap, ...args];
    for (const arg of line) {
      if (arg === "" || arg.includes("\n")) throw new Error(`unsafe argument ${JSON.stringify(arg)}`);
    }
    return line;
  }

  private execute(job: SandboxJob, standby: Standby, proxySocket: string | undefined, started: number): Promise<JobResult> {
    const { child, cgroup } = standby;
    this.sandboxesStarted += 1;
    const header = `${this.commandLine(job, cgroup, proxySocket).join("\n")}\n\n`;
    child.stdin!.on("error", () => {});
    child.stdin!.end(Buffer.concat([Buffer.from(header), job.input]));
    (globalThis as any).T.push(["written", performance.now()]);
    const info = child.stdio[INFO_FD] as Readable;

    return new Promise<JobResult>((resolve) => {
      const stdout: Buffer[] = [];
      let stdoutBytes = 0;
      const stderr: Buffer[] = [];
      let stderrKept = 0;
      let stderrDropped = 0;
      let ended: "limit" | "timeout" | "complete" | undefined;
      let sandboxPid: number | undefined;
      let infoText = "";
      const detector = new JsonEndDetector();
      let graceTimer: NodeJS.Timeout | undefined;

      const kill = () => {
        child.kill("SIGKILL");
        if (sandboxPid) {
          try {
            process.kill(sandboxPid, "SIGKILL");
          } catch {
            // Gone already, and with it its pid namespace.
          }
        }
        cgroup?.killAll();
      };
      const end = (why: "limit" | "timeout" | "complete") => {
        ended ??= why;
        kill();
      };
      const wallTimer = setTimeout(() => end("timeout"), job.limits.wall_ms);
      const graceThenEnd = () => {
        graceTimer ??= setTimeout(() => end("complete"), EXIT_GRACE_MS);
      };

      info.on("data", (chunk: Buffer) => {
        if (sandboxPid) return;
        infoText += chunk.toString("utf8");
        try {
          sandboxPid = (JSON.parse(infoText) as { "child-pid"?: number })["child-pid"];
          (globalThis as any).T.push(["info", performance.now()]);
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
        if (detector.push(chunk)) { (globalThis as any).T.push(["complete", performance.now()]); graceThenEnd(); }
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

      child.on("exit", () => (globalThis as any).T.push(["exit", performance.now()]));
      child.on("close", (code, signal) => {
        (globalThis as any).T.push(["close", performance.now()]);
        clearTimeout(wallTimer);
        clearTimeout(graceTimer);
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
        if (oom || heapOom) status = "oom";
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
