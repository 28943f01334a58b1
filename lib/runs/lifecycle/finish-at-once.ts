// A Link's verified result recorded by one SQL statement: the job moves to succeeded or failed with
// its result columns and its step with it, the run's hold is settled (the refund entry; the
// ledger's trigger keeps the person's columns), a solo run's unused reservation goes back to the
// agent's allowance, and the Link's count of runs goes up. It does finishJob's work for the plain
// case and nothing else: a job no longer placed or running on this Link (withdrawn, expired,
// placed again, a result already recorded), one without a hold, or a statement PostgreSQL refuses
// writes nothing, and the caller takes finishJob's way, which decides and words those outcomes.
import "server-only";
import { settlementOf } from "../../billing/ledger";
import { refusedByPostgres, sqlPool, utcText } from "../../db";
import { log } from "../../log";
import type { Attestation, JobResultBody } from "../../protocol";
import type { ResultFacts } from "../attestation";
import { Effects } from "./effects";
import { newRowId } from "./ids";
import { resultColumns, resultRan, resultStepColumns } from "./result-columns";
import { JOB_TRANSITIONS, jobMayMove } from "./table";

const inList = (values: readonly string[]) => values.map((v) => `'${v}'`).join(", ");
const FINISH = { ok: JOB_TRANSITIONS.succeed, failed: JOB_TRANSITIONS.fail };

// Each table is reached by its primary key alone (the Link's and the placement's tests are not
// indexable): a generic plan made while a table's statistics were few must not walk an index of
// the Link's whole history. The allowance first and the person's row (the refund's trigger) after
// it, the order a submission takes them in; the step last, after its job, as every transition does.
const finishSql = (transition: (typeof FINISH)[keyof typeof FINISH]) => `
  WITH j AS (
    UPDATE "RunJob"
       SET state = '${transition.to}', "resultStatus" = $3, output = $4::jsonb, stderr = $5, "exitCode" = $6::int,
           "wallMsUsed" = $7::int, "maxRssBytes" = $8::bigint, attestation = $9::jsonb, "costMicros" = $10::bigint,
           "finishedAt" = $11::timestamp, "leaseExpiresAt" = NULL
     WHERE id = $1 AND "linkId" IS NOT DISTINCT FROM $2 AND state IN (${inList(transition.from)})
       AND placement IS NOT DISTINCT FROM $12::"Placement"
    RETURNING id, "stepId", "userId"
  ), allowance AS (
    UPDATE "AgentAllowance" AS a SET "spentMicros" = GREATEST(0, a."spentMicros" - $13::bigint)
      FROM j
     WHERE $14::date IS NOT NULL AND a."agentId" = $15 AND a."spentDay" = $14::date AND $13::bigint > 0
    RETURNING a."agentId"
  ), settle AS (
    INSERT INTO "LedgerEntry" (id, "userId", kind, "amountMicros", "idempotencyKey", "jobId", "agentId", "skillSlug",
                               memo, "createdAt")
    SELECT $16, j."userId", 'refund', $13::bigint, 'run:' || j.id || ':2', j.id, $15, $17, $18, $11::timestamp
      FROM j, (SELECT count(*) FROM allowance) AS reserved
    RETURNING id
  ), counted AS (
    UPDATE "Link" SET "jobsRun" = "jobsRun" + 1 FROM j WHERE "Link".id = $2
    RETURNING 1
  ), step AS (
    UPDATE "Step" AS s
       SET status = '${transition.step.to}', result = $19::jsonb, "wallMs" = $7::int, "exitStatus" = $3, message = $20,
           "updatedAt" = $11::timestamp
     WHERE s.id = (SELECT "stepId" FROM j) AND s.status IN (${inList(transition.step.from)})
    RETURNING s.id
  )
  SELECT j."stepId", j."userId", (SELECT count(*) FROM step) > 0 AS "stepMoved"
    FROM j, (SELECT count(*) FROM settle) AS settled, (SELECT count(*) FROM counted) AS c`;
const FINISH_SQL = { ok: finishSql(FINISH.ok), failed: finishSql(FINISH.failed) };

const json = (value: unknown) => (value === undefined ? null : JSON.stringify(value));

/** True when the result was recorded; false when nothing was written and the general way decides. */
export async function finishAtOnce(
  linkId: string,
  jobId: string,
  facts: ResultFacts,
  result: JobResultBody,
  attestation: Attestation,
  now = new Date(),
): Promise<boolean> {
  const outcome = result.status === "ok" ? "ok" : "failed";
  if (facts.holdMicros === null || !jobMayMove(outcome === "ok" ? "succeed" : "fail", facts.state)) return false;
  const { charged, refund, memo } = settlementOf({
    heldMicros: -facts.holdMicros,
    ending: resultRan(result) ? "ran" : "never_ran",
    wallMs: result.wall_ms,
    placement: facts.placement,
  });
  const job = resultColumns(result, attestation);
  const step = resultStepColumns(result);
  let rows: { stepId: string | null; userId: string; stepMoved: boolean }[];
  try {
    ({ rows } = await sqlPool().query({
      name: `run-finish-${outcome}`,
      text: FINISH_SQL[outcome],
      values: [
        jobId,
        linkId,
        job.resultStatus,
        json(job.output),
        job.stderr,
        job.exitCode,
        job.wallMsUsed,
        job.maxRssBytes === null ? null : String(job.maxRssBytes),
        JSON.stringify(job.attestation),
        String(charged),
        utcText(now),
        facts.placement,
        String(refund),
        facts.agentAlone && facts.holdAgentId ? facts.createdDay : null,
        facts.holdAgentId,
        newRowId(),
        facts.holdSkillSlug,
        memo,
        json(step.result),
        step.message,
      ],
    }));
  } catch (err) {
    if (!refusedByPostgres(err)) throw err;
    log.warn("run.finish_at_once_refused", { jobId, err });
    return false;
  }
  const moved = rows[0];
  if (!moved) return false;
  const effects = new Effects();
  if (moved.stepMoved && moved.stepId) effects.stepChanged({ id: moved.stepId, userId: moved.userId });
  await effects.run();
  return true;
}
