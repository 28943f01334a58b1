// Job transitions. Each is one transaction: lock the job row, check the transition table, write the
// job and its step together with the money that goes with it, commit, then wake whoever waits.
// Two transitions racing for one job (a result and a cancel, a lease expiry and a result) serialise
// on the row lock; the second finds the job already moved and changes nothing.
import "server-only";
import { settleRun, type RunEnding } from "../../billing/ledger";
import { db, Prisma, type DbTx, type RunJob } from "../../db";
import type { Attestation, CancelCode, JobResultBody } from "../../protocol";
import { ONLINE_WINDOW_MS } from "../../links/service";
import { MAX_PLACEMENTS, OWN_LINKS_FIRST_MS, RESULT_DELIVERY_MS, RUNNING_LEASE_MS } from "../constants";
import { Effects } from "./effects";
import { isStepFinal, JOB_TRANSITIONS, jobMayMove, stepAfterJob, type JobTransition } from "./table";
import { resultColumns, resultRan, resultStepColumns } from "./result-columns";
import { EXPIRY_WORDS, LATE_WORDS, REPLACED_WORDS } from "./words";

/**
 * A transition may wait for a pooled connection and for its row's lock behind others (many results
 * of one Link at once): longer than Prisma's defaults, still bounded.
 */
export const TX_OPTIONS = { maxWait: 10_000, timeout: 20_000 } as const;

export type Moved = { applied: true; job: RunJob } | { applied: false; job: RunJob | null };

type Plan = {
  job?: Omit<Prisma.RunJobUncheckedUpdateInput, "state">;
  step?: Omit<Prisma.StepUncheckedUpdateInput, "status">;
  effects?: Effects;
};

/** Finds and locks the job a transition is about (null when there is none, or it is locked and skipped). */
export type Locker = (tx: DbTx) => Promise<RunJob | null>;

/** The job with this id, locked until the transaction ends; `skipLocked` passes over one in use. */
export function byId(jobId: string, skipLocked = false): Locker {
  return async (tx) => {
    const found = skipLocked
      ? await tx.$queryRaw<{ id: string }[]>`SELECT id FROM "RunJob" WHERE id = ${jobId} FOR UPDATE SKIP LOCKED`
      : await tx.$queryRaw<{ id: string }[]>`SELECT id FROM "RunJob" WHERE id = ${jobId} FOR UPDATE`;
    return found.length ? tx.runJob.findUnique({ where: { id: jobId } }) : null;
  };
}

/** One due row of an indexed query, locked, skipping rows another sweeper or transition holds. */
export function nextDue(query: Prisma.Sql): Locker {
  return async (tx) => {
    const found = await tx.$queryRaw<{ id: string }[]>`${query} LIMIT 1 FOR UPDATE SKIP LOCKED`;
    return found[0] ? tx.runJob.findUnique({ where: { id: found[0].id } }) : null;
  };
}

type Decision = { transition: JobTransition; plan: (tx: DbTx, job: RunJob) => Promise<Plan | null> } | null;

async function move(lock: Locker, decide: (job: RunJob, tx: DbTx) => Decision | Promise<Decision>): Promise<Moved> {
  const effects = new Effects();
  const outcome = await db.$transaction(async (tx): Promise<Moved> => {
    const job = await lock(tx);
    const decision = job ? await decide(job, tx) : null;
    if (!job || !decision || !jobMayMove(decision.transition, job.state)) return { applied: false, job };
    const planned = await decision.plan(tx, job);
    if (!planned) return { applied: false, job };
    const { transition } = decision;
    const updated = await tx.runJob.update({
      where: { id: job.id },
      data: { ...planned.job, state: JOB_TRANSITIONS[transition].to },
    });
    if (job.stepId) {
      const rows = await tx.$queryRaw<
        { status: string }[]
      >`SELECT status FROM "Step" WHERE id = ${job.stepId} FOR UPDATE`;
      const next = rows[0] ? stepAfterJob(transition, rows[0].status) : null;
      if (next) {
        await tx.step.update({ where: { id: job.stepId }, data: { ...planned.step, status: next } });
        if (isStepFinal(next)) effects.stepChanged({ id: job.stepId, userId: job.userId });
        else effects.stepProgressed({ id: job.stepId, userId: job.userId });
      }
    }
    if (planned.effects) effects.merge(planned.effects);
    return { applied: true, job: updated };
  }, TX_OPTIONS);
  if (outcome.applied) await effects.run();
  return outcome;
}

const one = (transition: JobTransition, plan: (tx: DbTx, job: RunJob) => Promise<Plan | null>) => () => ({
  transition,
  plan,
});

/** Start (placed → running): its Link began to run it; from now on its heartbeat keeps the lease. */
export function startJob(linkId: string, jobId: string, now = new Date()): Promise<Moved> {
  return move(
    byId(jobId),
    one("start", async (_tx, job) => {
      if (job.linkId !== linkId) return null;
      const lease = new Date(now.getTime() + RUNNING_LEASE_MS);
      return {
        job: { startedAt: now, leaseExpiresAt: lease },
        effects: new Effects().leaseEnds(lease),
      };
    }),
  );
}

const unplaced = { linkId: null, placement: null, placedAt: null, leaseExpiresAt: null } as const;

/** Release (placed → queued): its Link handed it back before running it. */
export function releaseJob(linkId: string, jobId: string): Promise<Moved> {
  return move(
    byId(jobId),
    one("release", async (_tx, job) => {
      if (job.linkId !== linkId) return null;
      return { job: unplaced, effects: new Effects().jobQueued(job.userId) };
    }),
  );
}

/**
 * A placed or running job whose lease ran out: its Link went silent. A job that never started is
 * placed again while it has placements and time left (its Link too may take it again: nothing ran).
 * One that started goes to another of its person's own Links that is online now, or else expires;
 * the silent Link is never given it again and its result for it is refused (the job is no longer
 * its), so the run is charged once at most.
 */
function onLeaseDecision(now: Date) {
  return async (job: RunJob, tx: DbTx): Promise<Decision> => {
    if (!job.leaseExpiresAt || job.leaseExpiresAt > now) return null;
    const again = job.attempts < MAX_PLACEMENTS && job.expiresAt > now;
    if (job.state === "placed" && again) {
      return {
        transition: "requeue",
        plan: async () => ({ job: unplaced, effects: new Effects().jobQueued(job.userId) }),
      };
    }
    const lapsed =
      job.state === "running" && job.linkId ? [...new Set([...job.lapsedLinkIds, job.linkId])] : job.lapsedLinkIds;
    if (job.state === "running" && again && (await otherOwnLinkOnline(tx, job.userId, lapsed, now))) {
      return {
        transition: "replace",
        plan: async () => ({
          // The person's own Links get it first again; `startedAt` stays: a Link did start it.
          job: { ...unplaced, lapsedLinkIds: lapsed, poolAfter: new Date(now.getTime() + OWN_LINKS_FIRST_MS) },
          step: { message: REPLACED_WORDS },
          effects: new Effects().jobQueued(job.userId).linkChanged(job.linkId),
        }),
      };
    }
    const expire = expirePlan(job.startedAt ? "silentStarted" : "silent");
    return {
      transition: "expire",
      plan: async (tx, job) => {
        const planned = await expire(tx, job);
        return { ...planned, job: { ...planned.job, lapsedLinkIds: lapsed } };
      },
    };
  };
}

/** Whether the person has a Link other than these with the runner on that was seen just now. */
async function otherOwnLinkOnline(tx: DbTx, userId: string, except: string[], now: Date): Promise<boolean> {
  const since = new Date(now.getTime() - ONLINE_WINDOW_MS);
  const found = await tx.link.findFirst({
    where: { userId, revokedAt: null, runnerEnabled: true, lastSeenAt: { gte: since }, id: { notIn: except } },
    select: { id: true },
  });
  return found !== null;
}

export async function onLeaseExpired(
  jobId: string,
  now = new Date(),
  lock: Locker = byId(jobId),
): Promise<"requeued" | "expired" | "nothing"> {
  const moved = await move(lock, onLeaseDecision(now));
  if (!moved.applied) return "nothing";
  return moved.job.state === "queued" ? "requeued" : "expired";
}

/** TTL: a job no Link has started by its expiry ends `expired`. A running job lives by its lease. */
function onTtlDecision(now: Date) {
  return (job: RunJob): Decision =>
    job.expiresAt <= now && job.state !== "running" ? { transition: "expire", plan: expirePlan("ttl") } : null;
}

/** The sweep's side of the timers: one due job at a time, skipping those another sweeper holds. */
export const sweepOne = {
  lease: (now: Date) =>
    move(
      nextDue(
        Prisma.sql`SELECT id FROM "RunJob" WHERE state IN ('placed', 'running') AND "leaseExpiresAt" <= ${now} ORDER BY "leaseExpiresAt"`,
      ),
      onLeaseDecision(now),
    ),
  ttl: (now: Date) =>
    move(
      nextDue(
        Prisma.sql`SELECT id FROM "RunJob" WHERE state IN ('queued', 'placed') AND "expiresAt" <= ${now} ORDER BY "expiresAt"`,
      ),
      onTtlDecision(now),
    ),
};

/** Expire (queued | placed | running → expired): the hold comes back; nothing is charged. */
function expirePlan(why: keyof typeof EXPIRY_WORDS) {
  return async (tx: DbTx, job: RunJob): Promise<Plan> => {
    const ending: RunEnding = job.startedAt ? "expired_unreported" : "never_ran";
    const settled = await settleRun(tx, settlement(job, ending, null));
    return {
      job: { finishedAt: new Date(), leaseExpiresAt: null, costMicros: settled.chargedMicros },
      step: { message: EXPIRY_WORDS[why], exitStatus: "expired" },
      effects: new Effects().linkChanged(job.linkId),
    };
  };
}

/** Cancel (queued | placed | running → cancelled): withdrawn; the hold comes back in full. */
export function cancelJob(jobId: string, code: CancelCode, message: string): Promise<Moved> {
  return move(
    byId(jobId),
    one("cancel", async (tx, job) => {
      const settled = await settleRun(tx, settlement(job, "cancelled", null));
      return {
        job: { finishedAt: new Date(), leaseExpiresAt: null, cancelCode: code, costMicros: settled.chargedMicros },
        step: { message, exitStatus: "cancelled" },
        effects: new Effects().linkChanged(job.linkId),
      };
    }),
  );
}

/**
 * Finish (placed | running → succeeded | failed) with the result of the Link that holds it,
 * settled per started second at its placement's rate. A refusal or integrity failure ran nothing.
 */
export function finishJob(
  linkId: string,
  jobId: string,
  result: JobResultBody,
  attestation: Attestation,
): Promise<Moved> {
  const succeeded = result.status === "ok";
  return move(
    byId(jobId),
    one(succeeded ? "succeed" : "fail", async (tx, job) => {
      if (job.linkId !== linkId) return null;
      const settled = await settleRun(tx, settlement(job, resultRan(result) ? "ran" : "never_ran", result.wall_ms));
      await tx.link.update({ where: { id: linkId }, data: { jobsRun: { increment: 1 } } });
      return {
        job: {
          ...jobColumns(result, attestation),
          costMicros: settled.chargedMicros,
          finishedAt: new Date(),
          leaseExpiresAt: null,
        },
        step: stepColumns(result),
      };
    }),
  );
}

/** A result's job columns as Prisma writes them (no output: SQL NULL). */
function jobColumns(result: JobResultBody, attestation: Attestation) {
  const columns = resultColumns(result, attestation);
  return { ...columns, output: columns.output === undefined ? Prisma.DbNull : columns.output };
}

/** A result's step columns as Prisma writes them (no result: SQL NULL). */
function stepColumns(result: JobResultBody) {
  const columns = resultStepColumns(result);
  return { ...columns, result: columns.result === undefined ? Prisma.DbNull : columns.result };
}

function settlement(job: RunJob, ending: RunEnding, wallMs: number | null) {
  return {
    userId: job.userId,
    jobId: job.id,
    ending,
    wallMs,
    placement: ending === "ran" ? job.placement : null,
    // The reservation against the agent's allowance was made as the job was created.
    solo: job.agentAlone ? { reservedAt: job.createdAt } : null,
  };
}

/**
 * A Link's heartbeat: the running jobs it holds keep their lease. Never past the job's wall time
 * plus RESULT_DELIVERY_MS from its start: a Link that still holds a job then is past its limits.
 * Not a change of state: one statement over that Link's own rows.
 */
export async function renewLeases(linkId: string, jobIds: string[], now = new Date()): Promise<number> {
  if (!jobIds.length) return 0;
  const lease = new Date(now.getTime() + RUNNING_LEASE_MS);
  return db.$executeRaw`
    UPDATE "RunJob"
    SET "leaseExpiresAt" = LEAST(${lease}::timestamp(3), "startedAt" + ("wallMs" + ${RESULT_DELIVERY_MS}) * interval '1 millisecond')
    WHERE id = ANY(${jobIds}) AND "linkId" = ${linkId} AND state = 'running'`;
}

/**
 * A result that arrives after its job expired (its Link started it, then went quiet past its
 * lease, and delivered later): recorded for the record, with the step saying so. The job stays
 * `expired` and its hold was already returned: a late run is not charged (README, "Runs").
 */
export async function recordLateResult(
  linkId: string,
  jobId: string,
  result: JobResultBody,
  attestation: Attestation,
): Promise<boolean> {
  const effects = new Effects();
  const recorded = await db.$transaction(async (tx) => {
    const job = await byId(jobId)(tx);
    if (!job || job.linkId !== linkId || job.state !== "expired" || !job.startedAt || job.resultStatus) return false;
    await tx.runJob.update({ where: { id: jobId }, data: jobColumns(result, attestation) });
    if (job.stepId) {
      await tx.step.update({
        where: { id: job.stepId },
        data: { message: LATE_WORDS, wallMs: result.wall_ms, exitStatus: result.status },
      });
      effects.stepChanged({ id: job.stepId, userId: job.userId });
    }
    return true;
  }, TX_OPTIONS);
  if (recorded) await effects.run();
  return recorded;
}
