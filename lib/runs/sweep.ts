// The dispatch sweep: every deadline is a column, so whatever happened to Redis (a lost timer, a
// flushed queue), this finds what is due with indexed queries and applies the same transitions the
// timers would. Each due row is taken with FOR UPDATE SKIP LOCKED, so several worker hosts sweep
// side by side without doing anything twice. It also withdraws any job that can no longer run
// (a disable whose cancellation was interrupted, a version retired, a Link revoked).
import "server-only";
import { db } from "../db";
import { log } from "../log";
import { cancelJob, CANCEL_WORDS, expireDueStep, owedSubmissions, sweepOne, type CancelReason } from "./lifecycle";
import { submitStepJob } from "./submit";

/** At most this many rows of each kind per sweep; the next sweep takes the rest. */
const SWEEP_BATCH = 200;

/** A grant call's submission is owed by the sweep once its own request had this long to make it. */
const OUTBOX_GRACE_MS = 5_000;

export type SweepCounts = { ttls: number; leases: number; steps: number; withdrawn: number; submitted: number };

async function drain(next: () => Promise<{ applied: boolean; found: boolean }>): Promise<number> {
  let applied = 0;
  for (let i = 0; i < SWEEP_BATCH; i++) {
    const outcome = await next();
    if (!outcome.found) break;
    if (outcome.applied) applied++;
  }
  return applied;
}

/** Every job whose time to live ran out by `now` and that no Link started: expired. */
export function expireDueJobs(now = new Date()): Promise<number> {
  return drain(async () => {
    const moved = await sweepOne.ttl(now);
    return { applied: moved.applied, found: moved.job !== null };
  });
}

/** Every placed or running job whose lease ran out by `now`: placed again, or expired. */
export function expireDueLeases(now = new Date()): Promise<number> {
  return drain(async () => {
    const moved = await sweepOne.lease(now);
    return { applied: moved.applied, found: moved.job !== null };
  });
}

export async function sweepDispatch(now = new Date()): Promise<SweepCounts> {
  const ttls = await expireDueJobs(now);
  const leases = await expireDueLeases(now);
  const steps = await drain(async () => {
    const expired = await expireDueStep(now);
    return { applied: expired !== null, found: expired !== null };
  });
  return { ttls, leases, steps, withdrawn: await withdrawUnrunnable(), submitted: await submitOwed(now) };
}

/** The transactional outbox: grant calls that were stored but whose job was not submitted. */
async function submitOwed(now: Date): Promise<number> {
  let submitted = 0;
  for (const stepId of await owedSubmissions(OUTBOX_GRACE_MS, now)) {
    try {
      if ((await submitStepJob(stepId, true)).kind === "queued") submitted++;
    } catch (err) {
      log.warn("sweep.submit_failed", { stepId, err });
    }
  }
  return submitted;
}

/** Active jobs whose version was retired or failed, whose install is gone or off, or whose Link was revoked. */
async function withdrawUnrunnable(): Promise<number> {
  const rows = await db.$queryRaw<{ id: string; reason: CancelReason }[]>`
    SELECT j.id,
      CASE
        WHEN v."retiredAt" IS NOT NULL THEN 'retired'
        WHEN v.status = 'failed' THEN 'scanFailed'
        WHEN l."revokedAt" IS NOT NULL THEN 'linkRevoked'
        WHEN i.id IS NULL THEN 'uninstalled'
        ELSE 'disabled'
      END AS reason
    FROM "RunJob" AS j
    JOIN "SkillVersion" AS v ON v.id = j."versionId"
    LEFT JOIN "Install" AS i ON i."userId" = j."userId" AND i."versionId" = j."versionId"
    LEFT JOIN "Link" AS l ON l.id = j."linkId"
    WHERE j.state IN ('queued', 'placed', 'running')
      AND (v."retiredAt" IS NOT NULL OR v.status = 'failed' OR l."revokedAt" IS NOT NULL OR i.id IS NULL OR NOT i.enabled)
    LIMIT ${SWEEP_BATCH}`;
  let withdrawn = 0;
  for (const { id, reason } of rows) {
    const code = reason === "retired" || reason === "scanFailed" ? "run.job.revoked" : "run.job.cancelled";
    if ((await cancelJob(id, code, CANCEL_WORDS[reason])).applied) withdrawn++;
  }
  return withdrawn;
}
