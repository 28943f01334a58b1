// One job end to end on this Link: lay and verify the pinned inputs, check once more that the job
// may still run, run the tool in the sandbox, clean up. The result is the shape a Link reports.
import type { LinkRunResult, Limits, NetPolicy } from "../lib/protocol";
import { LinkError } from "./errors";
import { layPinnedInputs, type FetchMedia, type PinnedInput } from "./inputs";
import { parseEntry } from "./local-folder";
import { refused, type Sandbox } from "./sandbox/run";

export type SkillJob = {
  entry: string;
  input: unknown;
  inputs: PinnedInput[];
  net: NetPolicy;
  limits: Limits;
  /** Withdrawn by the server: nothing more starts, a running tool is killed (`cancelled`). */
  signal?: AbortSignal;
  /** The last word before the sandbox starts: a refusal (e.g. `run.job.revoked`) or null to run. */
  lastCheck?: () => { code: string; message: string } | null;
  /** The result handed on: the sandbox's background work waits for it (SandboxJob.settled). */
  settled?: Promise<unknown>;
  /** Called once the tool runs in its sandbox (SandboxJob.running). */
  running?: () => void;
};

export function cancelledResult(started: number): LinkRunResult {
  return {
    status: "cancelled",
    output: null,
    stderr: "",
    exit: null,
    wall_ms: Math.round(performance.now() - started),
    max_rss_bytes: null,
  };
}

export async function runSkillJob(sandbox: Sandbox, job: SkillJob, fetchMedia: FetchMedia): Promise<LinkRunResult> {
  const started = performance.now();
  const folder = await sandbox.jobFolder({ net: job.net, limits: job.limits });
  try {
    try {
      await layPinnedInputs(folder.files, job.inputs, fetchMedia);
    } catch (err) {
      if (err instanceof LinkError && err.code === "run.job.input_digest_mismatch") {
        return {
          status: "integrity",
          output: null,
          stderr: err.message,
          exit: null,
          wall_ms: Math.round(performance.now() - started),
          max_rss_bytes: null,
          code: err.code,
        };
      }
      throw err;
    }
    let entry: string;
    try {
      entry = parseEntry(job.entry);
    } catch (err) {
      return refused(
        started,
        err instanceof LinkError ? err.code : "link.exec.entry_invalid",
        err instanceof Error ? err.message : String(err),
      );
    }
    if (job.signal?.aborted) return cancelledResult(started);
    const refusal = job.lastCheck?.();
    if (refusal) return refused(started, refusal.code, refusal.message);
    return await sandbox.run({
      folder,
      entry,
      input: Buffer.from(JSON.stringify(job.input ?? null)),
      net: job.net,
      limits: job.limits,
      signal: job.signal,
      settled: job.settled,
      running: job.running,
    });
  } finally {
    // The sandbox's own cleanup (its cgroup, its proxy) goes on after the result; `idle()` waits for it.
    sandbox.removeJobFolder(folder, job.settled);
  }
}
