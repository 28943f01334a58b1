// A call under an "always allow" grant recorded and submitted in one SQL statement: the step is
// written `queued` together with its job, the call's `job.json`, the agent's allowance reservation
// and the run's hold. One statement commits on its own, so the person's row (which every call of
// their agents needs, locked by the hold's ledger trigger at the statement's very end) is held for
// the commit alone, never across a round trip to this process. It does the work of createStep +
// submitJob for the plain case and nothing else: when the allowance does not cover the run, the
// balance does not (the ledger's CHECK refuses the hold), or the key is taken, nothing is written
// and the caller goes the usual way, which decides and words those outcomes.
import "server-only";
import { sqlPool, type Step } from "../../db";
import { deleteUnreferencedBlobs, keepBlobOfRow, mediaLockSharedSql, writeBlobForRow } from "../../media";
import { log } from "../../log";
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
import { TIMER_JOBS } from "../timers";
import { Effects } from "./effects";
import { newJobId, newMediaId, newRowId } from "./ids";

export type AtOncePlan = {
  step: {
    userId: string;
    projectId: string;
    agentId: string;
    versionId: string;
    kind: string;
    label: string;
    target: string;
    tool: string;
    input: unknown;
    net: NetPolicy;
    expiresAt: Date;
    idempotencyKey: string | null;
  };
  skillSlug: string;
  limits: Limits;
  worstCaseMicros: bigint;
  pins: PinnedInput[];
  call: Buffer;
  poolAllowed: boolean;
  poolAfter: Date;
  now: Date;
};

export type AtOnceOutcome = { kind: "queued"; step: Step; jobId: string } | { kind: "not_now" };

// Postgres error codes: the hold would take the balance below zero; the agent's key is taken.
const CHECK_VIOLATION = "23514";
const UNIQUE_VIOLATION = "23505";

const utc = (d: Date) => d.toISOString().replace("Z", "");

// The allowance's running total is reset on a new UTC day, as reserveAllowance does; the chain of
// FROMs makes each insert wait for the one before, so no allowance means no step.
const SUBMIT_SQL = `
  WITH media_lock AS (
    SELECT ${mediaLockSharedSql("$16")}
  ), allowance AS (
    UPDATE "AgentAllowance"
       SET "spentDay" = $22::date,
           "spentMicros" = CASE WHEN "spentDay" = $22::date THEN "spentMicros" ELSE 0 END + $23::bigint,
           "updatedAt" = $12::timestamp
     WHERE "agentId" = $4 AND EXISTS (SELECT 1 FROM media_lock)
       AND CASE WHEN "spentDay" = $22::date THEN "spentMicros" ELSE 0 END + $23::bigint <= "dailyLimitMicros"
    RETURNING 1
  ), step AS (
    INSERT INTO "Step" (id, "userId", "projectId", "agentId", "versionId", kind, label, target, tool, input, net,
                        status, approval, "decidedAt", "idempotencyKey", "createdAt", "updatedAt", "expiresAt")
    SELECT $1, $2, $3, $4, $5, $6, $7, $8, $9, $10::jsonb, $11, 'queued'::"StepStatus", 'grant'::"ApprovalMode", $12::timestamp, $13,
           $12::timestamp, $12::timestamp, $14::timestamp
      FROM allowance
    RETURNING id
  ), media AS (
    INSERT INTO "MediaObject" (id, "ownerId", sha256, "sizeBytes", "mediaType", "storageKey", "createdAt")
    SELECT $15, $2, $16, $17::int, $18, $19, $12::timestamp FROM step
    RETURNING id
  ), job AS (
    INSERT INTO "RunJob" (id, "userId", "projectId", "stepId", "versionId", tool, class, "artifactName",
                          "artifactVersion", inputs, net, "wallMs", "memBytes", "ttlMs", "idempotencyKey",
                          "agentAlone", "poolAllowed", "poolAfter", "createdAt", "expiresAt")
    SELECT $20, $2, $3, step.id, $5, $9, $24, $25, $26, $21::jsonb, $11, $27::int, $28::bigint, $29::int, 'step:' || step.id,
           true, $30::boolean, $31::timestamp, $12::timestamp, $32::timestamp
      FROM step, media
    RETURNING id
  ), hold AS (
    INSERT INTO "LedgerEntry" (id, "userId", kind, "amountMicros", "idempotencyKey", "jobId", "agentId",
                               "skillSlug", memo, "createdAt")
    SELECT $33, $2, 'charge'::"LedgerKind", -$23::bigint, 'run:' || job.id || ':1', job.id, $4, $34, $35, $12::timestamp
      FROM job
    RETURNING id
  )
  SELECT count(*)::int AS held FROM hold`;

export async function submitAtOnce(plan: AtOncePlan): Promise<AtOnceOutcome> {
  const stepId = newRowId();
  const jobId = newJobId();
  const jobExpiresAt = new Date(plan.now.getTime() + JOB_TTL_MS);
  const { step: s } = plan;
  const blob = await writeBlobForRow({
    id: newMediaId(),
    bytes: plan.call,
    mediaType: "application/json",
    ownerId: s.userId,
  });
  const inputs: PinnedInput[] = [
    ...plan.pins,
    { name: CALL_INPUT_NAME, media_id: blob.id, sha256: blob.sha256, size_bytes: blob.sizeBytes },
  ];
  let held = 0;
  try {
    if (inputs.length > MAX_JOB_INPUTS) return { kind: "not_now" };
    const result = await sqlPool().query<{ held: number }>({
      name: "step-submit-at-once",
      text: SUBMIT_SQL,
      values: [
        stepId, s.userId, s.projectId, s.agentId, s.versionId, s.kind, s.label, s.target, s.tool,
        JSON.stringify(s.input), s.net, utc(plan.now), s.idempotencyKey, utc(s.expiresAt),
        blob.id, blob.sha256, blob.sizeBytes, blob.mediaType, blob.storageKey,
        jobId, JSON.stringify(inputs), plan.now.toISOString().slice(0, 10), plan.worstCaseMicros.toString(),
        JOB_CLASS, RUNNER_ARTIFACT.name, RUNNER_ARTIFACT.version, plan.limits.wall_ms,
        String(plan.limits.mem_bytes), JOB_TTL_MS, plan.poolAllowed, utc(plan.poolAfter), utc(jobExpiresAt),
        newRowId(), plan.skillSlug, `Run of ${plan.skillSlug}: held at its limits`,
      ],
    });
    held = result.rows[0]?.held ?? 0;
  } catch (err) {
    const code = (err as { code?: string }).code;
    if (code !== CHECK_VIOLATION && code !== UNIQUE_VIOLATION) throw err;
  } finally {
    if (!held) {
      await deleteUnreferencedBlobs([blob.sha256]).catch((err: unknown) =>
        log.error("media cleanup after a call not submitted at once did not finish", { err, sha256: blob.sha256 }),
      );
    }
  }
  if (held) {
    // Committed: the call is answered with its step whatever this finds (the Link retries a fetch).
    await keepBlobOfRow(blob, plan.call).catch((err: unknown) =>
      log.error("a call object could not be checked after its job was recorded", { err, jobId }),
    );
  }
  if (!held) return { kind: "not_now" };
  const step: Step = {
    id: stepId,
    userId: s.userId,
    projectId: s.projectId,
    agentId: s.agentId,
    versionId: s.versionId,
    kind: s.kind,
    label: s.label,
    target: s.target,
    tool: s.tool,
    input: s.input as Step["input"],
    net: s.net,
    status: "queued",
    approval: "grant",
    decidedAt: plan.now,
    result: null,
    message: null,
    wallMs: null,
    exitStatus: null,
    idempotencyKey: s.idempotencyKey,
    createdAt: plan.now,
    updatedAt: plan.now,
    expiresAt: s.expiresAt,
  };
  // After the answer's commit, and not waited for: wake-ups and an early timer only make it faster.
  void new Effects()
    .stepChanged(step)
    .jobQueued(step.userId)
    .timer({ name: TIMER_JOBS.jobTtl, data: { jobId }, at: jobExpiresAt, id: `ttl-${jobId}` })
    .run();
  return { kind: "queued", step, jobId };
}
