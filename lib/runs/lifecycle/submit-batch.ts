// The statement behind submitAtOnce, for one call or for several calls of one person at once. Each
// call's step is written `queued` with its job, its call object's MediaObject row (bytes and all), its agent's
// allowance reservation and its run's hold; the statement commits on its own. The person's row is
// locked by the holds' ledger trigger at the statement's very end and held for the commit alone,
// and calls of one person that arrive while their previous statement is in flight share the next
// one: one commit (one WAL flush under that lock) for the lot instead of one each.
import "server-only";
import pg from "pg";
import { refusedByPostgres, sqlPool } from "../../db";
import { log } from "../../log";

/** One call's row values; `inlineHex` is the call object's bytes, in hex. */
export type BatchRow = {
  stepId: string;
  projectId: string;
  agentId: string;
  versionId: string;
  kind: string;
  label: string;
  target: string;
  tool: string;
  inputJson: string;
  net: string;
  idempotencyKey: string | null;
  expiresAt: string;
  mediaId: string;
  sha256: string;
  sizeBytes: number;
  mediaType: string;
  storageKey: string;
  inlineHex: string;
  jobId: string;
  inputsJson: string;
  worstCaseMicros: string;
  wallMs: number;
  memBytes: string;
  poolAllowed: boolean;
  poolAfter: string;
  jobExpiresAt: string;
  ledgerId: string;
  skillSlug: string;
  memo: string;
  /** The call's clock, as UTC text, and its UTC day. */
  now: string;
  day: string;
};

export type BatchShared = {
  userId: string;
  jobClass: string;
  artifactName: string;
  artifactVersion: string;
  ttlMs: number;
};

const COLUMNS: [keyof BatchRow, string][] = [
  ["stepId", "text"],
  ["projectId", "text"],
  ["agentId", "text"],
  ["versionId", "text"],
  ["kind", "text"],
  ["label", "text"],
  ["target", "text"],
  ["tool", "text"],
  ["inputJson", "text"],
  ["net", "text"],
  ["idempotencyKey", "text"],
  ["expiresAt", "timestamp"],
  ["mediaId", "text"],
  ["sha256", "text"],
  ["sizeBytes", "int"],
  ["mediaType", "text"],
  ["storageKey", "text"],
  ["inlineHex", "text"],
  ["jobId", "text"],
  ["inputsJson", "text"],
  ["worstCaseMicros", "bigint"],
  ["wallMs", "int"],
  ["memBytes", "bigint"],
  ["poolAllowed", "boolean"],
  ["poolAfter", "timestamp"],
  ["jobExpiresAt", "timestamp"],
  ["ledgerId", "text"],
  ["skillSlug", "text"],
  ["memo", "text"],
  ["now", "timestamp"],
  ["day", "date"],
];
const S = COLUMNS.length; // the shared values come after the per-call arrays
const col = (name: keyof BatchRow) => `i."${name}"`;

// The allowance rows locked in agent order
// (so two batches never wait on each other in a circle), a new UTC day resetting the running total
// as reserveAllowance does; a call whose allowance does not cover it writes nothing; each insert
// joins the one before, so no allowance means no step, and no step no job and no hold.
const BATCH_SQL = `
  WITH i AS (
    SELECT * FROM unnest(${COLUMNS.map(([, type], n) => `$${n + 1}::${type}[]`).join(", ")})
      AS i(${COLUMNS.map(([name]) => `"${name}"`).join(", ")})
  ), locked AS (
    SELECT a."agentId" FROM "AgentAllowance" a
     WHERE a."agentId" IN (SELECT "agentId" FROM i)
     ORDER BY a."agentId" FOR UPDATE
  ), allowance AS (
    UPDATE "AgentAllowance" a
       SET "spentDay" = ${col("day")},
           "spentMicros" = CASE WHEN a."spentDay" = ${col("day")} THEN a."spentMicros" ELSE 0 END + ${col("worstCaseMicros")},
           "updatedAt" = ${col("now")}
      FROM i
     WHERE a."agentId" = ${col("agentId")} AND a."agentId" IN (SELECT "agentId" FROM locked)
       AND CASE WHEN a."spentDay" = ${col("day")} THEN a."spentMicros" ELSE 0 END + ${col("worstCaseMicros")}
           <= a."dailyLimitMicros"
    RETURNING a."agentId"
  ), step AS (
    INSERT INTO "Step" (id, "userId", "projectId", "agentId", "versionId", kind, label, target, tool, input, net,
                        status, approval, "decidedAt", "idempotencyKey", "createdAt", "updatedAt", "expiresAt")
    SELECT ${col("stepId")}, $${S + 1}, ${col("projectId")}, ${col("agentId")}, ${col("versionId")}, ${col("kind")},
           ${col("label")}, ${col("target")}, ${col("tool")}, ${col("inputJson")}::jsonb, ${col("net")},
           'queued'::"StepStatus", 'grant'::"ApprovalMode", ${col("now")}, ${col("idempotencyKey")},
           ${col("now")}, ${col("now")}, ${col("expiresAt")}
      FROM i JOIN allowance ON allowance."agentId" = ${col("agentId")}
    RETURNING id
  ), media AS (
    INSERT INTO "MediaObject" (id, "ownerId", sha256, "sizeBytes", "mediaType", "storageKey", "inlineBytes", "createdAt")
    SELECT ${col("mediaId")}, $${S + 1}, ${col("sha256")}, ${col("sizeBytes")}, ${col("mediaType")}, ${col("storageKey")},
           decode(${col("inlineHex")}, 'hex'), ${col("now")}
      FROM i JOIN step ON step.id = ${col("stepId")}
    RETURNING id
  ), job AS (
    INSERT INTO "RunJob" (id, "userId", "projectId", "stepId", "versionId", tool, class, "artifactName",
                          "artifactVersion", inputs, net, "wallMs", "memBytes", "ttlMs", "idempotencyKey",
                          "agentAlone", "poolAllowed", "poolAfter", "createdAt", "expiresAt")
    SELECT ${col("jobId")}, $${S + 1}, ${col("projectId")}, step.id, ${col("versionId")}, ${col("tool")}, $${S + 2},
           $${S + 3}, $${S + 4}, ${col("inputsJson")}::jsonb, ${col("net")}, ${col("wallMs")}, ${col("memBytes")},
           $${S + 5}::int, 'step:' || step.id, true, ${col("poolAllowed")}, ${col("poolAfter")}, ${col("now")},
           ${col("jobExpiresAt")}
      FROM i JOIN step ON step.id = ${col("stepId")}
    RETURNING id, "stepId"
  ), hold AS (
    INSERT INTO "LedgerEntry" (id, "userId", kind, "amountMicros", "idempotencyKey", "jobId", "agentId",
                               "skillSlug", memo, "createdAt")
    SELECT ${col("ledgerId")}, $${S + 1}, 'charge'::"LedgerKind", -${col("worstCaseMicros")}, 'run:' || job.id || ':1',
           job.id, ${col("agentId")}, ${col("skillSlug")}, ${col("memo")}, ${col("now")}
      FROM i JOIN job ON job."stepId" = ${col("stepId")}
    RETURNING "jobId"
  )
  SELECT job."stepId" AS "stepId" FROM job JOIN hold ON hold."jobId" = job.id, (SELECT count(*) FROM media) m`;

// A statement PostgreSQL refused (lib/db `refusedByPostgres`) wrote nothing: a hold that would take
// the balance below zero, an agent's key taken, two batches in a deadlock, or anything else the long
// way will meet (and store the step before, as it always has). A lost connection goes up (503) for
// the agent's key to make the retry safe.

/** The step ids whose job and hold were written; throws when the statement failed. */
async function write(shared: BatchShared, rows: BatchRow[]): Promise<Set<string>> {
  const values: unknown[] = COLUMNS.map(([name]) => rows.map((row) => row[name]));
  values.push(shared.userId, shared.jobClass, shared.artifactName, shared.artifactVersion, shared.ttlMs);
  const result = await sqlPool().query<{ stepId: string }>({ name: "step-submit-batch", text: BATCH_SQL, values });
  return new Set(result.rows.map((r) => r.stepId));
}

/** Written (true), or not written and the call goes the usual way (false). */
async function writeAlone(shared: BatchShared, row: BatchRow): Promise<boolean> {
  try {
    return (await write(shared, [row])).has(row.stepId);
  } catch (err) {
    if (!refusedByPostgres(err)) throw err;
    // 23514: the balance does not cover it; 23505: the key is taken. Anything else is worth a line.
    const code = (err as pg.DatabaseError).code;
    if (code !== "23514" && code !== "23505") log.warn("step.submit_at_once_refused", { stepId: row.stepId, err });
    return false;
  }
}

type Waiting = { shared: BatchShared; row: BatchRow; done: (written: boolean) => void; fail: (err: unknown) => void };

/** At most this many calls share a statement (its arrays stay small). */
const MAX_BATCH = 100;
const queues = new Map<string, Waiting[]>();

/** Writes one call, together with the other calls of its person waiting at the same moment. */
export function writeCall(shared: BatchShared, row: BatchRow): Promise<boolean> {
  return new Promise((done, fail) => {
    const queue = queues.get(shared.userId);
    if (queue) return void queue.push({ shared, row, done, fail });
    queues.set(shared.userId, [{ shared, row, done, fail }]);
    void drain(shared.userId);
  });
}

async function drain(userId: string) {
  for (;;) {
    const queue = queues.get(userId)!;
    if (!queue.length) return void queues.delete(userId);
    // One call per agent in a statement: an allowance row is updated once per statement.
    const agents = new Set<string>();
    const batch: Waiting[] = [];
    for (const waiting of queue) {
      if (batch.length >= MAX_BATCH || agents.has(waiting.row.agentId)) continue;
      agents.add(waiting.row.agentId);
      batch.push(waiting);
    }
    queues.set(
      userId,
      queue.filter((w) => !batch.includes(w)),
    );
    const shared = batch[0]!.shared;
    if (batch.length === 1) {
      await writeAlone(shared, batch[0]!.row).then(batch[0]!.done, batch[0]!.fail);
      continue;
    }
    try {
      const written = await write(
        shared,
        batch.map((w) => w.row),
      );
      for (const w of batch) w.done(written.has(w.row.stepId));
    } catch (err) {
      if (!refusedByPostgres(err)) for (const w of batch) w.fail(err);
      else for (const w of batch) await writeAlone(w.shared, w.row).then(w.done, w.fail);
    }
  }
}
