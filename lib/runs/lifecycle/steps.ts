// Step transitions before a step has a job: it is recorded waiting for the person (or for its
// grant's submission), and it ends without running (denied, expired, no node, cancelled, …). Each is
// one transaction under the step's row lock, so an approval racing an expiry has one winner.
import "server-only";
import { db, type DbTx, type Prisma, type Step } from "../../db";
import { TIMER_JOBS } from "../timers";
import { Effects } from "./effects";
import { TX_OPTIONS } from "./jobs";
import { STEP_ONLY, stepMayMove, type StepOnlyTransition } from "./table";
import { EXPIRY_WORDS } from "./words";

/** The step row, locked until the transaction ends (null when there is none). */
export async function lockStep(tx: DbTx, stepId: string): Promise<Step | null> {
  const found = await tx.$queryRaw<{ id: string }[]>`SELECT id FROM "Step" WHERE id = ${stepId} FOR UPDATE`;
  return found.length ? tx.step.findUnique({ where: { id: stepId } }) : null;
}

const approvalTimer = (step: Pick<Step, "id" | "expiresAt">) => ({
  name: TIMER_JOBS.stepExpire,
  data: { stepId: step.id },
  at: step.expiresAt,
  id: `expire-${step.id}`,
});

/**
 * Records a new step waiting for approval (`pending_approval`). A step the person must decide is
 * announced and its approval window's timer set. A step under a grant is written together with its
 * outbox row (one transaction): the caller submits it at once, and if that fails the dispatch sweep
 * submits it from the outbox. The call is answered either way.
 */
export async function createStep(
  data: Omit<Prisma.StepUncheckedCreateInput, "status" | "id">,
  mode: "awaits_person" | "submit",
): Promise<Step> {
  const step = await db.$transaction(async (tx) => {
    const created = await tx.step.create({ data: { ...data, status: "pending_approval" } });
    if (mode === "submit") await tx.stepOutbox.create({ data: { stepId: created.id } });
    return created;
  });
  if (mode === "awaits_person") await new Effects().stepChanged(step).timer(approvalTimer(step)).run();
  return step;
}

/** A step older than a day lets go of its call's idempotency key, so the key may name a new call. */
export async function releaseStepKey(stepId: string): Promise<void> {
  await db.step.update({ where: { id: stepId }, data: { idempotencyKey: null } });
}

/** Steps whose submission is still owed (their outbox row is older than `olderThanMs`). */
export async function owedSubmissions(olderThanMs: number, now = new Date(), take = 200): Promise<string[]> {
  const rows = await db.stepOutbox.findMany({
    where: { createdAt: { lte: new Date(now.getTime() - olderThanMs) } },
    orderBy: { createdAt: "asc" },
    select: { stepId: true },
    take,
  });
  return rows.map((r) => r.stepId);
}

/** The submission of this step is settled (done, or it ended another way): its outbox row goes. */
export async function settleSubmission(stepId: string, tx: DbTx = db): Promise<void> {
  await tx.stepOutbox.deleteMany({ where: { stepId } });
}

/** Ends a step that has no job: `deny`, `expire`, `noNode`, `insufficientBalance`, `block`, `cancel`. */
export async function endPendingStep(
  stepId: string,
  transition: Exclude<StepOnlyTransition, "submit">,
  message: string,
  guard: (step: Step) => boolean = () => true,
): Promise<boolean> {
  const effects = new Effects();
  const applied = await db.$transaction(async (tx) => {
    const step = await lockStep(tx, stepId);
    if (!step || !stepMayMove(transition, step.status) || !guard(step)) return false;
    await tx.step.update({
      where: { id: stepId },
      data: { status: STEP_ONLY[transition].to, message, decidedAt: new Date() },
    });
    effects.stepChanged(step);
    return true;
  }, TX_OPTIONS);
  if (applied) await effects.run();
  return applied;
}

/** The person's decision on a pending step, recorded before it is submitted ("once" or "always"). */
export async function recordApproval(stepId: string, approval: "once" | "always"): Promise<boolean> {
  const { count } = await db.step.updateMany({
    where: { id: stepId, status: "pending_approval" },
    data: { approval },
  });
  return count === 1;
}

/**
 * A solo call that does not fit the agent's allowance waits for the person after all: inside the
 * submission's transaction, the step keeps `pending_approval` and says why.
 */
export async function awaitPerson(tx: DbTx, step: Step, reason: string, effects: Effects): Promise<void> {
  await tx.step.update({ where: { id: step.id }, data: { message: reason, approval: null } });
  effects.stepChanged(step).timer(approvalTimer(step));
}

/**
 * The sweep's approval expiry: one step past its approval window, locked, skipping a step another
 * sweeper or a decision holds right now. Null when none is due.
 */
export async function expireDueStep(now = new Date()): Promise<{ id: string } | null> {
  const effects = new Effects();
  const expired = await db.$transaction(async (tx) => {
    const due = await tx.$queryRaw<{ id: string; userId: string }[]>`
      SELECT id, "userId" FROM "Step" WHERE status = 'pending_approval' AND "expiresAt" <= ${now}
      ORDER BY "expiresAt" LIMIT 1 FOR UPDATE SKIP LOCKED`;
    const step = due[0];
    if (!step) return null;
    // STEP_ONLY.expire: pending_approval → expired.
    await tx.step.update({
      where: { id: step.id },
      data: { status: STEP_ONLY.expire.to, message: EXPIRY_WORDS.approval, decidedAt: now },
    });
    effects.stepChanged(step);
    return { id: step.id };
  }, TX_OPTIONS);
  if (expired) await effects.run();
  return expired;
}
