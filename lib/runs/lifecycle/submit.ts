// Submission (step pending_approval → queued, its job created queued): one transaction under the
// step's row lock, so a double click or a retried request submits one job at most. The HO7
// allowance of a solo run and the person's balance are checked and reserved inside it, each under
// its own row lock, so parallel calls cannot all pass the same check. The person's row, which every
// call of that person's agents needs, is locked last, just before the hold: it is held for the
// check, the hold's insert and the commit, a constant amount of work however long the ledger.
import "server-only";
import { reserveAllowance } from "../../billing/allowance";
import { ensureCovered, holdForRun } from "../../billing/ledger";
import { AppError } from "../../errors";
import { withMediaTransaction } from "../../media";
import {
  CALL_INPUT_NAME,
  JOB_CLASS,
  JOB_TTL_MS,
  MAX_JOB_INPUTS,
  RUNNER_ARTIFACT,
  type Limits,
  type NetPolicy,
  type PinnedInput,
} from "../../protocol";
import { Effects } from "./effects";
import { awaitPerson, lockStep, settleSubmission } from "./steps";
import { stepMayMove } from "./table";

export type SubmitPlan = {
  stepId: string;
  jobId: string;
  /** The agent acted alone (an "always allow" grant): the run must fit its daily allowance. */
  agentAlone: boolean;
  versionId: string;
  tool: string;
  skillSlug: string;
  net: NetPolicy;
  limits: Limits;
  worstCaseMicros: bigint;
  /** The listing's pinned code. */
  pins: PinnedInput[];
  /** `job.json`: the call as canonical JSON. */
  call: Buffer;
  poolAllowed: boolean;
  /** When pool machines may claim it (the person's own Links get it first). */
  poolAfter: Date;
  now: Date;
};

export type SubmitOutcome =
  | { kind: "queued"; jobId: string }
  | { kind: "insufficient_balance" }
  | { kind: "needs_person"; reason: string }
  | { kind: "not_pending" };

/** The balance read before the lock covered the run, and no longer did under it: start again. */
class DrainedMeanwhile extends Error {}

export async function submitJob(plan: SubmitPlan): Promise<SubmitOutcome> {
  try {
    return await submitInOneTransaction(plan, false);
  } catch (err) {
    if (!(err instanceof DrainedMeanwhile)) throw err;
    // Rare (parallel calls spent it in between): the second try locks the person first and so
    // decides for certain.
    return submitInOneTransaction(plan, true);
  }
}

async function submitInOneTransaction(plan: SubmitPlan, lockPersonFirst: boolean): Promise<SubmitOutcome> {
  const effects = new Effects();
  const expiresAt = new Date(plan.now.getTime() + JOB_TTL_MS);
  const outcome = await withMediaTransaction(async (tx, media): Promise<SubmitOutcome> => {
    const step = await lockStep(tx, plan.stepId);
    // Past its approval window a step is the expiry's, not the approval's (one of the two wins).
    if (!step || !stepMayMove("submit", step.status) || step.expiresAt <= plan.now) return { kind: "not_pending" };
    if (plan.agentAlone) {
      if (!step.agentId) throw new Error("a solo run needs its agent");
      const allowance = await reserveAllowance(tx, step.agentId, plan.worstCaseMicros, plan.now);
      if (!allowance.ok) {
        await awaitPerson(tx, step, allowance.reason, effects);
        return { kind: "needs_person", reason: allowance.reason };
      }
    }
    try {
      await ensureCovered(tx, step.userId, plan.worstCaseMicros, lockPersonFirst);
    } catch (err) {
      if (!(err instanceof AppError) || err.code !== "billing.insufficient_balance") throw err;
      // STEP_ONLY.insufficientBalance: pending_approval → insufficient_balance.
      await tx.step.update({
        where: { id: step.id },
        data: { status: "insufficient_balance", message: err.message, decidedAt: plan.now },
      });
      effects.stepChanged(step);
      return { kind: "insufficient_balance" };
    }
    const callObject = await media.put({ bytes: plan.call, mediaType: "application/json", ownerId: step.userId });
    const inputs: PinnedInput[] = [
      ...plan.pins,
      { name: CALL_INPUT_NAME, media_id: callObject.id, sha256: callObject.sha256, size_bytes: callObject.sizeBytes },
    ];
    if (inputs.length > MAX_JOB_INPUTS)
      throw new AppError("run.job.inputs_invalid", `A job carries at most ${MAX_JOB_INPUTS} inputs.`);
    await tx.runJob.create({
      data: {
        id: plan.jobId,
        userId: step.userId,
        projectId: step.projectId,
        stepId: step.id,
        versionId: plan.versionId,
        tool: plan.tool,
        class: JOB_CLASS,
        artifactName: RUNNER_ARTIFACT.name,
        artifactVersion: RUNNER_ARTIFACT.version,
        inputs,
        net: plan.net,
        wallMs: plan.limits.wall_ms,
        memBytes: BigInt(plan.limits.mem_bytes),
        ttlMs: JOB_TTL_MS,
        idempotencyKey: `step:${step.id}`,
        agentAlone: plan.agentAlone,
        poolAllowed: plan.poolAllowed,
        poolAfter: plan.poolAfter,
        createdAt: plan.now,
        expiresAt,
      },
    });
    // STEP_ONLY.submit: pending_approval → queued; nothing is owed from the outbox any more.
    await tx.step.update({ where: { id: step.id }, data: { status: "queued", decidedAt: plan.now, message: null } });
    await settleSubmission(step.id, tx);
    if (!lockPersonFirst) {
      try {
        await ensureCovered(tx, step.userId, plan.worstCaseMicros);
      } catch (err) {
        if (err instanceof AppError && err.code === "billing.insufficient_balance") throw new DrainedMeanwhile();
        throw err;
      }
    }
    await holdForRun(tx, {
      userId: step.userId,
      jobId: plan.jobId,
      worstCaseMicros: plan.worstCaseMicros,
      agentId: step.agentId,
      skillSlug: plan.skillSlug,
    });
    effects
      .stepChanged(step)
      .jobQueued(step.userId)
      .jobExpires(expiresAt);
    return { kind: "queued", jobId: plan.jobId };
  });
  await effects.run();
  return outcome;
}
