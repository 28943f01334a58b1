// Submitting the Run job of an approved `skill.run` step, as the person: class `function`, the
// runner artifact, the listing's pinned code (media id and sha256 from the listing, never re-read
// from the document) plus the call as `job.json`, `net` exactly as declared, limits as declared.
// No Link that could take it: the step ends `no_node` — there is no fallback anywhere else.
import "server-only";
import { ulid } from "ulid";
import { canonicalJson, type Tool } from "../contracts";
import { agentSpentToday, ensureCovered, holdForRun } from "../billing/ledger";
import { worstCaseCost, formatMicros } from "../billing/rates";
import { db } from "../db";
import { AppError } from "../errors";
import { channels, notify } from "../events";
import { requireRunnableVersion } from "../installs";
import { ONLINE_WINDOW_MS } from "../links/service";
import { withMediaTransaction } from "../media";
import {
  CALL_INPUT_NAME,
  JOB_CLASS,
  JOB_TTL_MS,
  LIMIT_CAPS,
  MAX_JOB_INPUTS,
  OWN_LINKS_FIRST_MS,
  RUNNER_ARTIFACT,
} from "./constants";
import { scheduleAt, TIMER_JOBS } from "./timers";

export type JobInput = { name: string; media_id: string; sha256: string; size_bytes: number };

export type SubmitOutcome =
  | { kind: "queued"; jobId: string }
  | { kind: "blocked"; reason: string }
  | { kind: "no_node" }
  | { kind: "insufficient_balance" }
  | { kind: "needs_person"; reason: string }
  | { kind: "not_pending" };

/** Where a job for this person could run right now: their own Links with the runner on, then the pool. */
export async function eligibleLinks(userId: string, now = new Date()) {
  const since = new Date(now.getTime() - ONLINE_WINDOW_MS);
  const online = { revokedAt: null, runnerEnabled: true, lastSeenAt: { gte: since } };
  const [own, pool] = await Promise.all([
    db.link.count({ where: { ...online, userId } }),
    db.link.count({ where: { ...online, poolOffer: true } }),
  ]);
  return { own, pool };
}

export function checkLimits(limits: Tool["limits"]) {
  if (limits.wall_ms > LIMIT_CAPS.wall_ms || limits.mem_bytes > LIMIT_CAPS.mem_bytes) {
    throw new AppError(
      "run.limits.exceeded",
      `Limits above the caps (${LIMIT_CAPS.wall_ms} ms, ${LIMIT_CAPS.mem_bytes} bytes) are refused, never lowered.`,
    );
  }
}

/**
 * Submits the job of a step that is `pending_approval` and has just been approved (by the person,
 * or by an "always allow" grant when `agentAlone`). Everything happens under a lock on the step, so
 * a double click or a retried request submits one job at most.
 */
export async function submitStepJob(stepId: string, agentAlone: boolean): Promise<SubmitOutcome> {
  const step = await db.step.findUniqueOrThrow({
    where: { id: stepId },
    include: { version: { include: { skill: { select: { slug: true } }, listing: { include: { code: true } } } } },
  });
  if (step.status !== "pending_approval") return { kind: "not_pending" };
  // Re-checked at submission: a skill disabled, uninstalled or retired since the call runs nothing.
  try {
    await requireRunnableVersion({ userId: step.userId, versionId: step.versionId });
  } catch (err) {
    if (!(err instanceof AppError) || !err.code.startsWith("step.")) throw err;
    await finishStep(stepId, step.userId, "failed", err.message);
    return { kind: "blocked", reason: err.message };
  }
  const document = step.version.document as unknown as { tools?: Tool[] };
  const tool = document.tools?.find((t) => t.name === step.tool);
  if (!tool || !step.version.listing)
    throw new AppError("step.tool_unknown", `The tool ${step.tool} is not in this version.`);
  checkLimits(tool.limits);
  const worst = worstCaseCost(tool.limits.wall_ms);
  const slug = step.version.skill.slug;

  if (agentAlone && step.agentId) {
    const allowance = await db.agentAllowance.findUnique({ where: { agentId: step.agentId } });
    const spent = await agentSpentToday(step.agentId);
    const limit = allowance?.dailyLimitMicros ?? 0n;
    if (spent + worst > limit) {
      const reason = `This run can cost up to ${formatMicros(worst)} and the agent has ${formatMicros(limit - spent > 0n ? limit - spent : 0n)} of its daily allowance left, so it needs your approval.`;
      await db.step.update({ where: { id: stepId }, data: { message: reason, approval: null } });
      await notify(channels.step(stepId), channels.userSteps(step.userId));
      return { kind: "needs_person", reason };
    }
  }

  const links = await eligibleLinks(step.userId);
  if (links.own === 0 && links.pool === 0) {
    await finishStep(
      stepId,
      step.userId,
      "no_node",
      "No Link can run this now: none of your machines has the skill runner on and online, and no pool machine is offering. Run it on your machine: pair a Link and turn its skill runner on.",
    );
    return { kind: "no_node" };
  }

  const jobId = `job_${ulid().toLowerCase()}`;
  const pins: JobInput[] = step.version.listing.code.map((c) => ({
    name: c.name,
    media_id: c.mediaId,
    sha256: c.sha256,
    size_bytes: c.sizeBytes,
  }));
  const call = Buffer.from(canonicalJson({ tool: tool.name, entry: tool.entry, input: step.input }), "utf8");
  const now = new Date();
  const expiresAt = new Date(now.getTime() + JOB_TTL_MS);

  const outcome = await withMediaTransaction(async (tx, media) => {
    const locked = await tx.$queryRaw<{ status: string }[]>`SELECT status FROM "Step" WHERE id = ${stepId} FOR UPDATE`;
    if (locked[0]?.status !== "pending_approval") return { kind: "not_pending" } as const;
    try {
      await ensureCovered(tx, step.userId, worst);
    } catch (err) {
      if (err instanceof AppError && err.code === "billing.insufficient_balance") {
        await tx.step.update({
          where: { id: stepId },
          data: { status: "insufficient_balance", message: err.message, decidedAt: now },
        });
        return { kind: "insufficient_balance" } as const;
      }
      throw err;
    }
    const callObject = await media.put({ bytes: call, mediaType: "application/json", ownerId: step.userId });
    const inputs = [
      ...pins,
      { name: CALL_INPUT_NAME, media_id: callObject.id, sha256: callObject.sha256, size_bytes: callObject.sizeBytes },
    ];
    if (inputs.length > MAX_JOB_INPUTS)
      throw new AppError("run.job.inputs_invalid", `A job carries at most ${MAX_JOB_INPUTS} inputs.`);
    await tx.runJob.create({
      data: {
        id: jobId,
        userId: step.userId,
        projectId: step.projectId,
        stepId,
        class: JOB_CLASS,
        artifactName: RUNNER_ARTIFACT.name,
        artifactVersion: RUNNER_ARTIFACT.version,
        inputs,
        net: step.net,
        wallMs: tool.limits.wall_ms,
        memBytes: BigInt(tool.limits.mem_bytes),
        ttlMs: JOB_TTL_MS,
        idempotencyKey: `step:${stepId}`,
        poolAfter: new Date(now.getTime() + (links.own > 0 ? OWN_LINKS_FIRST_MS : 0)),
        expiresAt,
      },
    });
    await holdForRun(tx, {
      userId: step.userId,
      jobId,
      worstCaseMicros: worst,
      agentId: step.agentId,
      skillSlug: slug,
    });
    await tx.step.update({ where: { id: stepId }, data: { status: "queued", decidedAt: now, message: null } });
    return { kind: "queued", jobId } as const;
  });

  await notify(channels.step(stepId), channels.userSteps(step.userId));
  if (outcome.kind === "queued") {
    await scheduleAt(TIMER_JOBS.jobTtl, { jobId }, expiresAt, `ttl-${jobId}`);
    await notify(channels.userJobs(step.userId), channels.poolJobs());
  }
  return outcome;
}

export async function finishStep(
  stepId: string,
  userId: string,
  status: "no_node" | "denied" | "expired" | "failed",
  message: string,
) {
  await db.step.updateMany({
    where: { id: stepId, status: { in: ["pending_approval", "queued", "running"] } },
    data: { status, message, decidedAt: new Date() },
  });
  await notify(channels.step(stepId), channels.userSteps(userId));
}
