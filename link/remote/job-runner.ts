// One claimed job on this Link, from the poll's answer to its delivered result. Checked before
// anything runs: the job must read as the protocol's job, be of class `function` for
// openvibe-skill-runner@1.0.0 (else `run.job.unsupported`), and not be of a version the server has
// revoked (else `run.job.revoked`, even after it was claimed); then its pinned inputs are verified.
// A job the server withdraws meanwhile is killed and nothing is reported for it.
import { createHash } from "node:crypto";
import {
  CALL_INPUT_NAME,
  callSchema,
  JOB_CLASS,
  jobSchema,
  RUNNER_ARTIFACT,
  startResponseSchema,
  type CancelNotice,
  type Job,
  type LinkRunResult,
} from "../../lib/protocol";
import { LinkError } from "../errors";
import { parsePinnedInputs } from "../inputs";
import { runSkillJob } from "../job";
import { refused, type Sandbox } from "../sandbox/run";
import { readAttestedJob, signedResult, type AttestedJob, type LinkIdentity } from "./attest";
import { ServerError, Unreachable, type LinkClient } from "./client";
import type { LogRefusal } from "./log-check";
import { sleep, type Fold, type ResultOutbox } from "./results";

type Out = { line(text: string): void; error(text: string): void };

/** Why a held job was taken away: the server's notice, or this Link's own refusal. */
export class Withdrawal extends Error {
  constructor(readonly notice: Pick<CancelNotice, "code" | "message">) {
    super(notice.message);
  }
}

export type JobContext = {
  client: LinkClient;
  /** Signs every result this Link reports. */
  identity: LinkIdentity;
  /** The transparency-log check of a version before its first run here (./log-check.ts). */
  logCheck: { check(skill: Job["skill"]): Promise<LogRefusal | null> };
  sandbox: Sandbox;
  outbox: ResultOutbox;
  out: Out;
  /** Integrity hashes the server revoked (from every poll and heartbeat answer so far). */
  revoked: ReadonlySet<string>;
  /** Registers the job as held (heartbeats renew its lease and bring its withdrawal). */
  hold(jobId: string, controller: AbortController): void;
  release(jobId: string): void;
  /**
   * The poll to send with a result, for the slot and `memBytes` its job frees (./results.ts
   * `Fold`), or null when the Link takes no job now (its runner off, stopping).
   */
  nextPoll?(memBytes: number): Fold | null;
};

const REVOKED_WORDS = "This skill version was retired or failed its scan: this Link does not run it.";

/** Why this Link will not run the job, or null. Pure: the checks a unit test walks. */
export function refusalFor(job: Job, revoked: ReadonlySet<string>): { code: string; message: string } | null {
  if (
    job.class !== JOB_CLASS ||
    job.artifact.name !== RUNNER_ARTIFACT.name ||
    job.artifact.version !== RUNNER_ARTIFACT.version
  ) {
    return {
      code: "run.job.unsupported",
      message: `This Link runs class ${JOB_CLASS} jobs of ${RUNNER_ARTIFACT.name}@${RUNNER_ARTIFACT.version}, not ${job.class} of ${job.artifact.name}@${job.artifact.version}.`,
    };
  }
  if (revoked.has(job.skill.integrity)) return { code: "run.job.revoked", message: REVOKED_WORDS };
  return null;
}

/** Reports a refusal for a job this Link will not run (the server may already have withdrawn it). */
export async function refuseJob(
  ctx: JobContext,
  envelope: { id: string },
  code: string,
  message: string,
  until: AbortSignal,
) {
  const jobId = envelope.id;
  ctx.out.error(`✗ ${jobId}: refused (${code}). ${message}`);
  const job = readAttestedJob(envelope);
  if (!job) {
    // Nothing to sign a statement about: the server's lease ends the job instead.
    ctx.out.error(`  ${jobId}: the job does not name what a signed result needs; nothing is reported.`);
    return;
  }
  const now = new Date();
  const signed = signedResult(ctx.identity, job, refused(performance.now(), code, message), {
    startedAt: now,
    finishedAt: now,
  });
  ctx.outbox.keep(jobId, signed);
  await ctx.outbox.deliver(jobId, until, signed);
}

/** How long a start or an input fetch is retried while the server is unreachable or restarting. */
const REACH_BACKOFF_MS = [250, 500, 1_000, 2_000, 4_000, 4_000];

/**
 * A request of a job that the server's restart (or a dropped connection) must not turn into a
 * failed run: a network error, a 5xx or a 429 is tried again for about 12 s; anything else, or an
 * aborted job, is thrown at once.
 */
async function untilReachable<T>(request: () => Promise<T>, signal: AbortSignal): Promise<T> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await request();
    } catch (err) {
      const transient = err instanceof Unreachable || (err instanceof ServerError && err.retryable);
      if (!transient || signal.aborted || attempt >= REACH_BACKOFF_MS.length) throw err;
      await sleep(REACH_BACKOFF_MS[attempt]!, signal);
    }
  }
}

/** What came with a job in the poll's answer: already started, and its inputs' bytes when small. */
export type Handover = { started?: true; inputs?: { media_id: string; base64: string }[] };

/**
 * Runs one job the poll handed this Link; resolves once its result is delivered (or kept on disk).
 * Its inputs' bytes come from the handover when it carried them, checked against their sha256 as
 * fetched ones are; a job not started yet is started first.
 */
export async function runClaimedJob(
  ctx: JobContext,
  envelope: { id: string },
  until: AbortSignal,
  handover: Handover = {},
  /** Called once the tool runs in its sandbox (SandboxJob.running). */
  running?: () => void,
): Promise<void> {
  // The sandbox's work after the run (its teardown, the next warm boot) waits for the result's
  // delivery: forks and file system calls in this process would hold up its post.
  let handedOn!: () => void;
  const settled = new Promise<void>((resolve) => (handedOn = resolve));
  try {
    await runAndReport(ctx, envelope, until, handover, settled, running);
  } finally {
    handedOn();
  }
}

async function runAndReport(
  ctx: JobContext,
  envelope: { id: string },
  until: AbortSignal,
  handover: Handover,
  settled: Promise<void>,
  running: (() => void) | undefined,
): Promise<void> {
  const id = envelope.id;
  const parsed = jobSchema.safeParse(envelope);
  if (!parsed.success) {
    const issues = parsed.error.issues.map((i) => `${i.path.join(".") || "(job)"} ${i.message}`).join("; ");
    return refuseJob(ctx, envelope, "run.job.invalid", `The job does not read as a job: ${issues}`, until);
  }
  const job = parsed.data;
  const refusal = refusalFor(job, ctx.revoked);
  if (refusal) return refuseJob(ctx, job, refusal.code, refusal.message, until);

  const controller = new AbortController();
  ctx.hold(id, controller);
  const started = performance.now();
  const startedAt = new Date();
  const withdrawn = () => (controller.signal.reason instanceof Withdrawal ? controller.signal.reason.notice : null);
  let result: LinkRunResult;
  try {
    if (!handover.started) {
      try {
        await untilReachable(
          () =>
            ctx.client.json(startResponseSchema, "POST", `/api/link/v1/jobs/${id}/start`, undefined, controller.signal),
          controller.signal,
        );
      } catch (err) {
        if (err instanceof ServerError && err.jobGone)
          controller.abort(
            new Withdrawal({
              code: err.code === "run.job.revoked" ? "run.job.revoked" : "run.job.cancelled",
              message: err.message,
            }),
          );
        throw err;
      }
    }
    // Only a version the public log holds, with the listing it logged, runs here.
    const notLogged = await ctx.logCheck.check(job.skill);
    if (notLogged) throw new LinkError(notLogged.code, notLogged.message);
    const carried = new Map((handover.inputs ?? []).map((i) => [i.media_id, i.base64]));
    const fetchMedia = async (mediaId: string): Promise<Uint8Array> => {
      const base64 = carried.get(mediaId);
      if (base64 !== undefined) return new Uint8Array(Buffer.from(base64, "base64"));
      return untilReachable(
        () => ctx.client.bytes(`/api/link/v1/jobs/${id}/inputs/${mediaId}`, controller.signal),
        controller.signal,
      );
    };
    const inputs = parsePinnedInputs(job.inputs);
    const callInput = inputs.find((i) => i.name === CALL_INPUT_NAME);
    if (!callInput) throw new LinkError("run.job.inputs_invalid", "The job carries no job.json.");
    const callBytes = await fetchMedia(callInput.media_id);
    if (createHash("sha256").update(callBytes).digest("hex") !== callInput.sha256) {
      throw new LinkError("run.job.input_digest_mismatch", "job.json does not match the sha256 the job pinned.");
    }
    let callJson: unknown;
    try {
      callJson = JSON.parse(Buffer.from(callBytes).toString("utf8"));
    } catch {
      throw new LinkError("run.job.inputs_invalid", "job.json is not JSON.");
    }
    const call = callSchema.safeParse(callJson);
    if (!call.success)
      throw new LinkError("run.job.inputs_invalid", "job.json is not a call ({ tool, entry, input }).");
    if (call.data.tool !== job.skill.tool)
      throw new LinkError("run.job.inputs_invalid", "job.json names another tool than the job.");
    ctx.out.line(
      `▸ ${id}: ${job.skill.slug}@${job.skill.version} ${call.data.tool} (net ${job.net}, ${job.limits.wall_ms} ms, ${Math.round(job.limits.mem_bytes / 1048576)} MiB)`,
    );
    result = await runSkillJob(
      ctx.sandbox,
      {
        entry: call.data.entry,
        input: call.data.input,
        inputs: inputs.filter((i) => i.name !== CALL_INPUT_NAME),
        net: job.net,
        limits: job.limits,
        signal: controller.signal,
        lastCheck: () =>
          ctx.revoked.has(job.skill.integrity) ? { code: "run.job.revoked", message: REVOKED_WORDS } : null,
        settled,
        running,
      },
      fetchMedia,
    );
  } catch (err) {
    const code = err instanceof LinkError ? err.code : "link.internal";
    result = {
      status: code === "run.job.input_digest_mismatch" ? "integrity" : "refused",
      output: null,
      stderr: err instanceof Error ? err.message : String(err),
      exit: null,
      wall_ms: Math.round(performance.now() - started),
      max_rss_bytes: null,
      code,
    };
  }
  const notice = withdrawn();
  if (notice || result.status === "cancelled") {
    // The server withdrew it: it ran no further, and there is nothing to report.
    const code = notice?.code ?? "run.job.cancelled";
    ctx.out.error(
      `✗ ${id}: ${code === "run.job.revoked" ? "refused" : "cancelled"} (${code}). ${notice?.message ?? ""}`.trimEnd(),
    );
    ctx.release(id);
    return;
  }
  const signed = signedResult(ctx.identity, job satisfies AttestedJob, result, { startedAt, finishedAt: new Date() });
  ctx.outbox.keep(id, signed);
  ctx.out.line(`  ${result.status}${result.code ? ` (${result.code})` : ""} in ${result.wall_ms} ms`);
  try {
    await ctx.outbox.deliver(id, until, signed, ctx.nextPoll?.(job.limits.mem_bytes) ?? undefined);
  } finally {
    ctx.release(id);
  }
}
