// Watches one started sandbox until it is over and turns what it did into the job result: stdout
// (one JSON value, capped), stderr (capped, with a marker), the wall clock, the memory cgroup's
// verdict. The same for a sandbox started for the job (cold) and one booted ahead of it (warm).
import type { Readable } from "node:stream";
import type { JobCgroup } from "./cgroup";
import { JsonEndDetector } from "./json-end";
import { STDERR_MAX_BYTES, STDOUT_MAX_BYTES, type JobResult, type JobStatus, type Limits } from "./policy";
import { lowerSessionPriority } from "./priority";
import type { SandboxChild } from "./spawner";

/**
 * After one complete JSON value on stdout the job is over: the tool is ended at once rather than
 * waited for (Node's own teardown costs about 5 ms, and a tool may leave a timer or socket open).
 * Its `exit` is then null. A tool that closes stdout without a complete value gets this long to exit.
 */
const EXIT_GRACE_MS = 100;

/** The pid (outside its namespace) of the sandbox's init, as bwrap reports it on its info fd. */
export class SandboxPid {
  value: number | undefined;
  private text = "";

  /** `inCpuGroup`: the sandbox weighs through its CPU group, so its session's autogroup nice counts for nothing. */
  constructor(info: Readable, inCpuGroup = false) {
    info.on("data", (chunk: Buffer) => {
      if (this.value) return;
      this.text += chunk.toString("utf8");
      try {
        this.value = (JSON.parse(this.text) as { "child-pid"?: number })["child-pid"];
        if (this.value && !inCpuGroup) lowerSessionPriority(this.value);
      } catch {
        // Not all of it yet.
      }
    });
    info.on("error", () => {});
  }
}

export type Started = { child: SandboxChild; cgroup: JobCgroup | null; pid: SandboxPid };

/**
 * `result` is the job's result; `gone` resolves once every process of the sandbox is gone (what
 * the cleanup of its cgroup and proxy waits for). A tool that completed its value is answered
 * without waiting for its death: the kernel takes 10–30 ms to tear a killed Node down here.
 */
export function collect(
  sandbox: Started,
  job: { limits: Limits; signal?: AbortSignal },
  started: number,
): { result: Promise<JobResult>; gone: Promise<void> } {
  const { child, cgroup, pid } = sandbox;
  let markGone: () => void = () => {};
  const gone = new Promise<void>((resolve) => (markGone = resolve));
  const result = new Promise<JobResult>((resolve) => {
    const stdout: Buffer[] = [];
    let stdoutBytes = 0;
    const stderr: Buffer[] = [];
    let stderrKept = 0;
    let stderrDropped = 0;
    let ended: "limit" | "timeout" | "complete" | "cancelled" | undefined;
    const detector = new JsonEndDetector();
    let graceTimer: NodeJS.Timeout | undefined;

    const kill = () => {
      // The tool first: it is what must stop at once, and its exit is what closes the pipes.
      if (pid.value) {
        try {
          process.kill(pid.value, "SIGKILL");
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
      // A tool already ended (its value complete, a limit hit) has nothing to be given time for; a
      // timer then would only hold an `exec` process open after its answer.
      if (ended || settled) return;
      graceTimer ??= setTimeout(() => end("complete"), EXIT_GRACE_MS);
    };

    // Once the value is complete, stderr already in its pipe gets two more turns of the event loop.
    const answerSoon = () => setImmediate(() => setImmediate(() => settle(null, null)));
    child.stdout!.on("data", (chunk: Buffer) => {
      if (ended) return;
      stdoutBytes += chunk.length;
      if (stdoutBytes > STDOUT_MAX_BYTES) return end("limit");
      stdout.push(chunk);
      if (detector.push(chunk)) {
        end("complete");
        answerSoon();
      }
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

    let settled = false;
    const settle = (code: number | null, signal: NodeJS.Signals | null) => {
      if (settled) return;
      settled = true;
      clearTimeout(wallTimer);
      clearTimeout(graceTimer);
      job.signal?.removeEventListener("abort", withdraw);
      const wall_ms = Math.round(performance.now() - started);
      let stderrText = Buffer.concat(stderr).toString("utf8");
      if (stderrDropped > 0) stderrText += `\n[openvibe-link: stderr truncated, ${stderrDropped} more bytes dropped]`;
      if (!pid.value) {
        return resolve(
          refused(
            started,
            "link.sandbox.unavailable",
            `The sandbox did not start: ${stderrText.trim() || `exit ${code ?? signal}`}`,
          ),
        );
      }
      const exit = ended ? null : code;
      // The tool runs as its namespace's pid 1, so V8's abort() on its heap limit ends in a trap,
      // not always SIGABRT. Without a cgroup, RLIMIT_DATA surfaces as failed allocations.
      const heapOom = code !== 0 && /Reached heap limit|heap out of memory/.test(stderrText);
      const oom = cgroup
        ? cgroup.oomKilled()
        : code !== 0 &&
          /ERR_MEMORY_ALLOCATION_FAILED|Failed to allocate memory|Array buffer allocation failed/.test(stderrText);
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
    };
    child.on("close", (code, signal) => {
      settle(code, signal);
      markGone();
    });
  });
  return { result, gone };
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
  return {
    status: "refused",
    output: null,
    stderr: message,
    exit: null,
    wall_ms: Math.round(performance.now() - started),
    max_rss_bytes: null,
    code,
  };
}
