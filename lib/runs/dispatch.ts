// The Link side of Run: a Link claims a queued job it may take (the person's own Links first, the
// pool after), starts it, fetches its pinned inputs, and reports one result. The result is recorded
// exactly once, whatever is retried; a Link that goes silent loses its lease and the job is placed
// again or expires.
import "server-only";
import { z } from "zod";
import { settleRun } from "../billing/ledger";
import { db, Prisma, type RunJob } from "../db";
import { AppError } from "../errors";
import { channels, notify, waitFor } from "../events";
import type { LinkPrincipal } from "../links/authenticate";
import { getMedia } from "../media";
import { MAX_PLACEMENTS, MAX_POLL_WAIT_MS, RESULT_GRACE_MS, RUNNER_ARTIFACT, START_LEASE_MS } from "./constants";
import type { JobInput } from "./submit";
import { scheduleAt, TIMER_JOBS } from "./timers";

const OUTPUT_MAX_BYTES = 64 * 1024;
const STDERR_MAX_CHARS = 16 * 1024 + 64;

/** The job as a Link receives it. */
export function jobForLink(job: RunJob) {
  return {
    id: job.id,
    class: job.class,
    artifact: { name: job.artifactName, version: job.artifactVersion },
    inputs: job.inputs as JobInput[],
    net: job.net,
    limits: { wall_ms: job.wallMs, mem_bytes: Number(job.memBytes) },
    ttl_ms: job.ttlMs,
    expires_at: job.expiresAt.toISOString(),
  };
}

async function claimOnce(link: LinkPrincipal): Promise<RunJob | null> {
  const now = new Date();
  const lease = new Date(now.getTime() + START_LEASE_MS);
  const rows = await db.$queryRaw<{ id: string }[]>`
    WITH candidate AS (
      SELECT id FROM "RunJob"
      WHERE state = 'queued' AND "expiresAt" > ${now}
        AND ("userId" = ${link.userId} OR (${link.poolOffer} AND "poolAfter" <= ${now}))
      ORDER BY ("userId" = ${link.userId}) DESC, "createdAt"
      LIMIT 1
      FOR UPDATE SKIP LOCKED
    )
    UPDATE "RunJob" AS j
    SET state = 'placed', "linkId" = ${link.linkId},
        placement = (CASE WHEN j."userId" = ${link.userId} THEN 'own' ELSE 'pool' END)::"Placement",
        "placedAt" = ${now}, attempts = j.attempts + 1, "leaseExpiresAt" = ${lease}
    FROM candidate WHERE j.id = candidate.id
    RETURNING j.id`;
  const id = rows[0]?.id;
  if (!id) return null;
  await scheduleAt(TIMER_JOBS.jobLease, { jobId: id }, lease, `lease-${id}-${lease.getTime()}`);
  return db.runJob.findUniqueOrThrow({ where: { id } });
}

/** Long-poll: the next job this Link may run, or null after `waitMs`. A Link with its runner off gets none. */
export async function pollForJob(link: LinkPrincipal, waitMs: number, signal?: AbortSignal) {
  if (!link.runnerEnabled) return null;
  const deadline = Date.now() + Math.min(Math.max(waitMs, 0), MAX_POLL_WAIT_MS);
  const wake = [channels.userJobs(link.userId), ...(link.poolOffer ? [channels.poolJobs()] : [])];
  for (;;) {
    const job = await claimOnce(link);
    if (job) return jobForLink(job);
    const left = deadline - Date.now();
    if (left <= 0 || signal?.aborted) return null;
    // Re-check at least every second: pool jobs become claimable by time, not by a message.
    await waitFor(wake, Math.min(left, 1_000), signal);
  }
}

async function ownedJob(link: LinkPrincipal, jobId: string) {
  const job = await db.runJob.findUnique({ where: { id: jobId } });
  // Another Link's (or person's) job is indistinguishable from no job at all.
  if (!job || job.linkId !== link.linkId) throw new AppError("run.job.not_found", "That job was not found.");
  return job;
}

export async function startJob(link: LinkPrincipal, jobId: string) {
  const job = await ownedJob(link, jobId);
  if (job.state === "running") return { id: job.id, state: job.state };
  if (job.state !== "placed") throw new AppError("run.job.finished", `That job is ${job.state}.`);
  const now = new Date();
  const lease = new Date(now.getTime() + job.wallMs + RESULT_GRACE_MS);
  const moved = await db.runJob.updateMany({
    where: { id: jobId, linkId: link.linkId, state: "placed" },
    data: { state: "running", startedAt: now, leaseExpiresAt: lease },
  });
  if (moved.count === 1) {
    if (job.stepId) {
      await db.step.updateMany({ where: { id: job.stepId, status: "queued" }, data: { status: "running" } });
      await notify(channels.step(job.stepId), channels.userSteps(job.userId));
    }
    await scheduleAt(TIMER_JOBS.jobLease, { jobId }, lease, `lease-${jobId}-${lease.getTime()}`);
  }
  return { id: jobId, state: "running" as const };
}

/** The bytes of one pinned input of a job placed on this Link (re-verified against its sha256). */
export async function jobInputBytes(link: LinkPrincipal, jobId: string, mediaId: string) {
  const job = await ownedJob(link, jobId);
  if (job.state !== "placed" && job.state !== "running")
    throw new AppError("run.job.finished", `That job is ${job.state}.`);
  const input = (job.inputs as JobInput[]).find((i) => i.media_id === mediaId);
  if (!input) throw new AppError("media.not_found", "That input is not part of this job.");
  const { bytes } = await getMedia(mediaId);
  return bytes;
}

export const jobResultSchema = z.object({
  status: z.enum(["ok", "error", "output", "limit", "timeout", "oom", "integrity", "refused"]),
  output: z.unknown().optional(),
  stderr: z.string().max(STDERR_MAX_CHARS).default(""),
  exit: z.number().int().nullable().default(null),
  wall_ms: z.number().int().min(0).max(600_000),
  max_rss_bytes: z.number().int().min(0).nullable().default(null),
  code: z.string().max(100).optional(),
});
export type JobResultBody = z.infer<typeof jobResultSchema>;

const STATUS_WORDS: Record<JobResultBody["status"], string> = {
  ok: "The tool ran and returned its result.",
  error: "The tool failed (it threw or exited with an error).",
  output: "The tool did not write exactly one JSON value.",
  limit: "The tool's output was over 64 KiB.",
  timeout: "The tool ran past its time limit and was stopped.",
  oom: "The tool ran past its memory limit and was stopped.",
  integrity: "The code's bytes did not match the scanned bytes, so nothing ran.",
  refused: "The Link could not enforce what the job asks, so it refused to run it.",
};

/**
 * Records a Link's result once. A duplicate (same job, same Link) answers `recorded: false`; a result
 * from a Link that no longer holds the job is refused.
 */
export async function recordResult(link: LinkPrincipal, jobId: string, result: JobResultBody) {
  if (result.status === "ok") {
    if (result.output === undefined) throw new AppError("request.invalid", "An ok result carries its output.");
    if (Buffer.byteLength(JSON.stringify(result.output)) > OUTPUT_MAX_BYTES) {
      throw new AppError("request.invalid", "An output is at most 64 KiB; a larger one is status `limit`.");
    }
  }
  const outcome = await db.$transaction(async (tx) => {
    const rows = await tx.$queryRaw<RunJob[]>`SELECT * FROM "RunJob" WHERE id = ${jobId} FOR UPDATE`;
    const job = rows[0];
    if (!job || job.linkId !== link.linkId) throw new AppError("run.job.not_found", "That job was not found.");
    if (job.state !== "placed" && job.state !== "running") return { recorded: false as const, job };
    const now = new Date();
    const succeeded = result.status === "ok";
    const ran = result.status !== "integrity" && result.status !== "refused";
    const settled = await settleRun(tx, {
      userId: job.userId,
      jobId,
      wallMs: ran ? result.wall_ms : null,
      placement: ran ? job.placement : null,
    });
    const updated = await tx.runJob.update({
      where: { id: jobId },
      data: {
        state: succeeded ? "succeeded" : "failed",
        resultStatus: result.status,
        output: succeeded ? (result.output as Prisma.InputJsonValue) : Prisma.DbNull,
        stderr: result.stderr,
        exitCode: result.exit,
        wallMsUsed: result.wall_ms,
        maxRssBytes: result.max_rss_bytes === null ? null : BigInt(result.max_rss_bytes),
        costMicros: settled.chargedMicros,
        finishedAt: now,
        leaseExpiresAt: null,
      },
    });
    await tx.link.update({ where: { id: link.linkId }, data: { jobsRun: { increment: 1 } } });
    if (job.stepId) {
      await tx.step.update({
        where: { id: job.stepId },
        data: {
          status: succeeded ? "succeeded" : "failed",
          result: succeeded
            ? ({ type: "tool_result", untrusted: true, data: result.output } as Prisma.InputJsonValue)
            : Prisma.DbNull,
          wallMs: result.wall_ms,
          exitStatus: result.status,
          message: STATUS_WORDS[result.status],
        },
      });
    }
    return { recorded: true as const, job: updated };
  });
  if (outcome.recorded && outcome.job.stepId)
    await notify(channels.step(outcome.job.stepId), channels.userSteps(outcome.job.userId));
  return { recorded: outcome.recorded, state: outcome.job.state };
}

/** A Link shutting down hands its job back before it ran; it is placed again at once. */
export async function releaseJob(link: LinkPrincipal, jobId: string) {
  const job = await ownedJob(link, jobId);
  const moved = await db.runJob.updateMany({
    where: { id: jobId, linkId: link.linkId, state: "placed" },
    data: { state: "queued", linkId: null, placement: null, placedAt: null, leaseExpiresAt: null },
  });
  if (moved.count === 1) await notify(channels.userJobs(job.userId), channels.poolJobs());
  return { released: moved.count === 1 };
}

/** Timer: a placed/running job whose lease ran out goes back to the queue once more, or expires. */
export async function onLeaseExpired(jobId: string, now = new Date()) {
  const job = await db.runJob.findUnique({ where: { id: jobId } });
  if (!job || (job.state !== "placed" && job.state !== "running") || !job.leaseExpiresAt || job.leaseExpiresAt > now)
    return "nothing";
  if (job.attempts < MAX_PLACEMENTS && job.expiresAt > now) {
    const moved = await db.runJob.updateMany({
      where: { id: jobId, state: job.state, linkId: job.linkId, leaseExpiresAt: job.leaseExpiresAt },
      data: { state: "queued", linkId: null, placement: null, placedAt: null, startedAt: null, leaseExpiresAt: null },
    });
    if (moved.count === 1) {
      if (job.stepId)
        await db.step.updateMany({ where: { id: job.stepId, status: "running" }, data: { status: "queued" } });
      await notify(
        channels.userJobs(job.userId),
        channels.poolJobs(),
        ...(job.stepId ? [channels.step(job.stepId)] : []),
      );
      return "requeued";
    }
    return "nothing";
  }
  return (await expireJob(jobId, "Its Link stopped answering and no other Link finished it in time."))
    ? "expired"
    : "nothing";
}

/** Timer: a job not finished by its TTL expires; its hold is returned. */
export async function onJobTtl(jobId: string, now = new Date()) {
  const job = await db.runJob.findUnique({ where: { id: jobId }, select: { expiresAt: true, state: true } });
  if (!job || job.expiresAt > now) return "nothing";
  return (await expireJob(jobId, "No Link finished this run within its 120 s time to live.")) ? "expired" : "nothing";
}

async function expireJob(jobId: string, message: string): Promise<boolean> {
  const done = await db.$transaction(async (tx) => {
    const rows = await tx.$queryRaw<RunJob[]>`SELECT * FROM "RunJob" WHERE id = ${jobId} FOR UPDATE`;
    const job = rows[0];
    if (!job || !["queued", "placed", "running"].includes(job.state)) return null;
    await tx.runJob.update({
      where: { id: jobId },
      data: { state: "expired", finishedAt: new Date(), leaseExpiresAt: null },
    });
    await settleRun(tx, { userId: job.userId, jobId, wallMs: null, placement: null });
    if (job.stepId) {
      await tx.step.updateMany({
        where: { id: job.stepId, status: { in: ["queued", "running"] } },
        data: { status: "expired", message, exitStatus: "expired" },
      });
    }
    return job;
  });
  if (done?.stepId) await notify(channels.step(done.stepId), channels.userSteps(done.userId));
  return done !== null;
}

export { RUNNER_ARTIFACT };
