// A Link's poll takes jobs in one statement: the claim (queued → placed), which also reads what the
// Link is told about each job, what its start checks once more and its inputs' media rows; asked
// to, it starts at once (placed → running, their steps queued → running) the ones that plainly may
// run (a runner job of a version not retired whose scan passed, its install on). Any other it
// leaves placed, for the start checks and `startClaimedJobs`, the second statement. Both speak SQL
// to PostgreSQL themselves (prepared, without the ORM's work per query).
import "server-only";
import { sqlPool, utcText, type RunJob, type VersionStatus } from "../../db";
import { JOB_CLASS, RUNNER_ARTIFACT } from "../../protocol";
import { START_LEASE_MS, RUNNING_LEASE_MS } from "../constants";
import { Effects } from "./effects";

/** A claimed job with what the Link is told about its skill version. */
export type ClaimedJob = Pick<
  RunJob,
  | "id"
  | "userId"
  | "versionId"
  | "stepId"
  | "linkId"
  | "class"
  | "artifactName"
  | "artifactVersion"
  | "tool"
  | "inputs"
  | "net"
  | "wallMs"
  | "memBytes"
  | "ttlMs"
  | "expiresAt"
> & { version: { version: string; integrity: string; skill: { slug: string } } };

/** What the start of a claimed job checks once more: its version and its person's install, as claimed. */
export type StartFacts = {
  retired: boolean;
  status: VersionStatus;
  findingsHash: string | null;
  enabled: boolean | null;
  ack: string | null;
};

/** The media row of one of a claimed job's pinned inputs. */
/** `inline`: the bytes, in base64, of an object kept in its row (a call's job.json). */
export type ClaimedMedia = { id: string; sha256: string; sizeBytes: number; storageKey: string; inline: string | null };

/** `started`: the claim started it too (its lease is then the running one). */
export type Claimed = ClaimedJob & {
  leaseExpiresAt: Date;
  atStart: StartFacts;
  media: ClaimedMedia[];
  started: boolean;
};

/** How many of the oldest claimable jobs one claim weighs against each other for fairness. */
const CLAIM_WINDOW = 64;

// Planned once per connection (a generic plan), perhaps while the tables' statistics are few: rows
// past the window of queued jobs are reached by primary or unique key only (an IS NOT DISTINCT FROM
// test is one no index serves), so the claim's work follows the queue, never the history.
// $1 the Link, $2 now, $3 the window, $4 max, $5 the memory free (or null), $6 the start lease,
// $7 whether to start the plainly runnable ones, $8 the running lease, $9-$11 the job class and
// runner artifact a Link runs.
const CLAIM_SQL = `
  WITH me AS (
    SELECT "userId", ("poolOffer" AND "poolApprovedAt" IS NOT NULL) AS pool FROM "Link"
    WHERE id = $1 AND "revokedAt" IS NULL AND "runnerEnabled"
    FOR SHARE
  ), window_ AS (
    SELECT j.id, j."createdAt", (j."userId" = me."userId") AS own, COALESCE(s."agentId", j."userId") AS caller
    FROM "RunJob" AS j LEFT JOIN "Step" AS s ON s.id = j."stepId", me
    WHERE j.state = 'queued' AND j."expiresAt" > $2::timestamp
      AND NOT ($1 = ANY(COALESCE(j."lapsedLinkIds", ARRAY[]::text[])))
      AND (j."userId" = me."userId" OR (me.pool AND j."poolAllowed" AND j."poolAfter" <= $2::timestamp))
    ORDER BY (j."userId" = me."userId") DESC, j."createdAt"
    LIMIT $3::int
  ), turn AS (
    SELECT id, own, "createdAt", ROW_NUMBER() OVER (PARTITION BY caller ORDER BY "createdAt", id) AS turn
    FROM window_
  ), turns AS (
    SELECT id, own, ROW_NUMBER() OVER (ORDER BY own DESC, turn, "createdAt", id) AS place FROM turn
  ), ordered AS MATERIALIZED (
    SELECT array_agg(id ORDER BY place) AS ids FROM turns
  ), taken AS (
    -- Only the rows taken are locked, in turn order; one another claim holds is passed over.
    SELECT j.id, j."memBytes", (j."userId" = me."userId") AS own,
           array_position((SELECT ids FROM ordered), j.id) AS place
    FROM "RunJob" AS j, me
    WHERE j.id = ANY((SELECT ids FROM ordered)::text[]) AND j.state = 'queued'
    ORDER BY 4
    LIMIT $4::int
    FOR UPDATE OF j SKIP LOCKED
  ), candidate AS (
    SELECT id, own, place FROM (
      SELECT id, own, place, SUM("memBytes") OVER (ORDER BY place) AS needed FROM taken
    ) AS fit
    WHERE $5::bigint IS NULL OR needed <= $5::bigint
  ), startable AS (
    SELECT candidate.id FROM candidate
    JOIN "RunJob" AS j ON j.id = candidate.id
    WHERE $7::boolean AND j.class = $9 AND j."artifactName" = $10 AND j."artifactVersion" = $11
      AND COALESCE((SELECT v."retiredAt" IS NULL AND v.status = 'passed' AND i.enabled
                      FROM "SkillVersion" AS v
                      JOIN "Install" AS i ON i."userId" = j."userId" AND i."skillId" = v."skillId" AND i."versionId" = v.id
                     WHERE v.id = j."versionId"), false)
  ), claimed AS (
    UPDATE "RunJob" AS j
    SET state = (CASE WHEN startable.id IS NULL THEN 'placed' ELSE 'running' END)::"JobState", "linkId" = $1,
        placement = (CASE WHEN candidate.own THEN 'own' ELSE 'pool' END)::"Placement",
        "placedAt" = $2::timestamp, attempts = j.attempts + 1,
        "startedAt" = CASE WHEN startable.id IS NULL THEN j."startedAt" ELSE $2::timestamp END,
        "leaseExpiresAt" = CASE WHEN startable.id IS NULL THEN $6::timestamp ELSE $8::timestamp END
    FROM candidate LEFT JOIN startable ON startable.id = candidate.id
    WHERE j.id = candidate.id
    RETURNING j.id, j."userId", j."versionId", j."stepId", j."linkId", j.class, j."artifactName",
              j."artifactVersion", j.tool, j.inputs, j.net, j."wallMs", j."memBytes"::text AS "memBytes", j."ttlMs",
              round(extract(epoch FROM j."expiresAt") * 1000)::float8 AS "expiresAtMs", candidate.place,
              j.state = 'running' AS started
  ), stepped AS (
    UPDATE "Step" AS st SET status = 'running', "updatedAt" = $2::timestamp
    WHERE st.id = ANY(ARRAY(SELECT "stepId" FROM claimed WHERE started)) AND st.status IS NOT DISTINCT FROM 'queued'
    RETURNING st.id
  )
  SELECT c.*, EXISTS (SELECT 1 FROM stepped WHERE stepped.id = c."stepId") AS "stepMoved", v.version, v.integrity, sk.slug, v."retiredAt" IS NOT NULL AS retired, v.status::text AS status,
         l."findingsHash", i.enabled, i."findingsAckHash" AS ack,
         (SELECT COALESCE(json_agg(json_build_object('id', m.id, 'sha256', m.sha256, 'sizeBytes', m."sizeBytes",
                                                     'storageKey', m."storageKey",
                                                     'inline', encode(m."inlineBytes", 'base64'))), '[]'::json)
            FROM "MediaObject" AS m
           WHERE m.id = ANY(ARRAY(SELECT e->>'media_id' FROM jsonb_array_elements(c.inputs) AS e))) AS media
  FROM claimed AS c
  JOIN "SkillVersion" AS v ON v.id = c."versionId"
  JOIN "Skill" AS sk ON sk.id = v."skillId"
  LEFT JOIN "Listing" AS l ON l."versionId" = v.id
  LEFT JOIN "Install" AS i ON i."userId" = c."userId" AND i."skillId" = v."skillId" AND i."versionId" IS NOT DISTINCT FROM v.id
  ORDER BY c.place`;

type ClaimRow = Omit<ClaimedJob, "memBytes" | "expiresAt" | "version"> & {
  memBytes: string;
  expiresAtMs: number;
  version: string;
  integrity: string;
  slug: string;
  media: ClaimedMedia[];
  started: boolean;
  stepMoved: boolean;
} & StartFacts;

/**
 * Claim (queued → placed): up to `max` jobs this Link may take, the person's own first; a Link
 * serves other people's jobs only when it offers itself to the pool and an operator approved it,
 * and only jobs whose project allows the pool. Among the oldest claimable jobs they go oldest first
 * and in turns across agents (each agent's oldest, then each one's second, …), so that one agent's
 * burst cannot starve another; with `memFreeBytes`, only a run of them whose `mem_bytes` fit in it
 * together (a job that does not fit waits, it is never squeezed). The Link row is read under a
 * share lock, so a runner turned off (or a Link revoked) a moment ago is seen here. One statement,
 * so it is its own transaction. `leaseTimers: false` leaves the start lease's early timers to the
 * caller (a job started at once needs the running lease's instead; the sweep finds either way).
 * `startNow` starts the plainly runnable ones in the same statement (JOB_TRANSITIONS.claim, then
 * .start): their running leases' timers and their steps' wake-ups follow the answer.
 */
export async function claimJobs(
  link: { linkId: string },
  opts: { max?: number; memFreeBytes?: number | null; now?: Date; leaseTimers?: boolean; startNow?: boolean } = {},
): Promise<Claimed[]> {
  const { max = 1, memFreeBytes = null, now = new Date(), leaseTimers = true, startNow = false } = opts;
  const lease = new Date(now.getTime() + START_LEASE_MS);
  const runningLease = new Date(now.getTime() + RUNNING_LEASE_MS);
  // JOB_TRANSITIONS.claim: queued → placed.
  const { rows } = await sqlPool().query<ClaimRow>({
    name: "run-claim",
    text: CLAIM_SQL,
    values: [
      link.linkId,
      utcText(now),
      CLAIM_WINDOW,
      max,
      memFreeBytes === null ? null : String(Math.floor(memFreeBytes)),
      utcText(lease),
      startNow,
      utcText(runningLease),
      JOB_CLASS,
      RUNNER_ARTIFACT.name,
      RUNNER_ARTIFACT.version,
    ],
  });
  const claimed = rows.map((row): Claimed => {
    const {
      memBytes,
      expiresAtMs,
      version,
      integrity,
      slug,
      media,
      retired,
      status,
      findingsHash,
      enabled,
      ack,
      ...job
    } = row;
    return {
      ...job,
      memBytes: BigInt(memBytes),
      expiresAt: new Date(expiresAtMs),
      leaseExpiresAt: row.started ? runningLease : lease,
      version: { version, integrity, skill: { slug } },
      atStart: { retired, status, findingsHash, enabled, ack },
      media,
    };
  });
  if (leaseTimers) await startLeaseTimers(claimed.filter((job) => !job.started));
  const started = rows.filter((row) => row.started);
  if (started.length) {
    const effects = new Effects().leaseEnds(runningLease);
    for (const row of started) {
      if (row.stepMoved && row.stepId) effects.stepProgressed({ id: row.stepId, userId: row.userId });
    }
    afterTheAnswer(effects);
  }
  return claimed;
}

/**
 * For claimed jobs that stay placed until their Link starts them: the early timers of their start
 * leases, and their steps' wake-ups (whoever follows a step hears of its placement, not only of its
 * start).
 */
export async function startLeaseTimers(
  jobs: Pick<Claimed, "id" | "leaseExpiresAt" | "stepId" | "userId">[],
): Promise<void> {
  const effects = new Effects();
  for (const job of jobs) {
    effects.leaseEnds(job.leaseExpiresAt);
    if (job.stepId) effects.stepProgressed({ id: job.stepId, userId: job.userId });
  }
  await effects.run();
}

/** How long after a claim its jobs' wake-ups and early timers begin: by then the answer has gone. */
const AFTER_ANSWER_MS = 5;

/**
 * Not waited for, and begun once the poll's answer is on its way: the jobs go to their Link at
 * once; the wake-ups of those who follow their steps (each of which reads the step) and an early
 * timer only make things faster, and would compete with the answer for the CPU.
 */
function afterTheAnswer(effects: Effects): void {
  setTimeout(() => void effects.run(), AFTER_ANSWER_MS);
}

// $1 the jobs, $2 the Link, $3 now, $4 the running lease.
const START_SQL = `
  WITH j AS (
    UPDATE "RunJob" SET state = 'running', "startedAt" = $3::timestamp, "leaseExpiresAt" = $4::timestamp
    WHERE id = ANY($1::text[]) AND "linkId" = $2 AND state = 'placed'
    RETURNING id, "stepId", "userId"
  ), s AS (
    UPDATE "Step" AS s SET status = 'running', "updatedAt" = $3::timestamp
    FROM j WHERE s.id = j."stepId" AND s.status = 'queued'
    RETURNING s.id
  )
  SELECT j.id, j."stepId", j."userId", EXISTS (SELECT 1 FROM s WHERE s.id = j."stepId") AS "stepMoved" FROM j`;

/**
 * Start (placed → running) of jobs this Link has just claimed, with their steps (queued → running),
 * in one statement: the move of `startJob`, in the same lock order (the job, then its step). The ids
 * it started; one not placed on this Link any more is left out, for `startJob`'s way.
 */
export async function startClaimedJobs(linkId: string, jobIds: string[], now = new Date()): Promise<Set<string>> {
  if (!jobIds.length) return new Set();
  const lease = new Date(now.getTime() + RUNNING_LEASE_MS);
  // JOB_TRANSITIONS.start: placed → running, its step queued → running.
  const { rows } = await sqlPool().query<{ id: string; stepId: string | null; userId: string; stepMoved: boolean }>({
    name: "run-start-claimed",
    text: START_SQL,
    values: [jobIds, linkId, utcText(now), utcText(lease)],
  });
  const effects = rows.length ? new Effects().leaseEnds(lease) : new Effects();
  for (const moved of rows) {
    if (moved.stepMoved && moved.stepId) effects.stepProgressed({ id: moved.stepId, userId: moved.userId });
  }
  afterTheAnswer(effects);
  return new Set(rows.map((r) => r.id));
}

/**
 * Records that the first result of `resultJobId` brought these jobs to `linkId` (its `next`): a
 * repeat of that result hands them over again while they run there.
 */
export async function markHandedWith(resultJobId: string, jobIds: string[], linkId: string): Promise<void> {
  await sqlPool().query({
    name: "run-handed-with",
    text: `UPDATE "RunJob" SET "handedWith" = $1 WHERE id = ANY($2::text[]) AND "linkId" IS NOT DISTINCT FROM $3`,
    values: [resultJobId, jobIds, linkId],
  });
}
