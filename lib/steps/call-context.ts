// Everything a tool call needs to be decided, read in one statement (one round trip) instead of
// the dozen Prisma queries the checks make one by one: the install and its version, the called tool
// (not the whole document), listing and pinned code, the grant, the project's pool setting, how
// many Links could take the job, and an earlier step with the same idempotency key. A call that is
// not plainly runnable goes the long way (lib/installs' own checks), which also words the refusal.
import "server-only";
import { sqlPool, utcText } from "../db";
import { batchedLookup } from "../db/batched";
import { checkFindingsAck } from "../installs";
import { ONLINE_WINDOW_MS } from "../links/service";
import type { PinnedInput } from "../protocol";

export type CallContext = {
  /** The install exists, is this version, enabled, in the agent's project, and its scan lets it run. */
  runnable: boolean;
  versionId: string;
  /** The called tool as the version's document declares it; null when it declares no such tool. */
  tool: unknown;
  pins: PinnedInput[];
  granted: boolean;
  allowPool: boolean;
  links: { own: number; pool: number };
  /** A step of this agent with this key from the last KEY_REUSE_AFTER_MS. */
  earlierStepId: string | null;
};

type Row = {
  version_id: string;
  version: string;
  tool: unknown;
  status: "scanning" | "passed" | "flagged" | "failed";
  retired: boolean;
  enabled: boolean;
  install_project: string;
  findings_ack: string | null;
  listing_id: string | null;
  findings_hash: string | null;
  pins: PinnedInput[];
  granted: boolean;
  allow_pool: boolean;
  own_links: number;
  pool_links: number;
};

// One row per call of the batch (none for a call whose person has no install of the skill),
// numbered as the calls were.
const CONTEXT_SQL = `
  SELECT q.n, ctx.*
    FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[])
         WITH ORDINALITY AS q(user_id, slug, project_id, tool, since, n)
   CROSS JOIN LATERAL (
      SELECT v.id AS version_id, v.version,
             (SELECT t FROM jsonb_array_elements(CASE WHEN jsonb_typeof(v.document->'tools') = 'array'
                                                      THEN v.document->'tools' ELSE '[]'::jsonb END) AS t
               WHERE t->>'name' = q.tool LIMIT 1) AS tool,
             v.status::text AS status, v."retiredAt" IS NOT NULL AS retired,
             i.enabled, i."projectId" AS install_project, i."findingsAckHash" AS findings_ack,
             l.id AS listing_id, l."findingsHash" AS findings_hash,
             coalesce((SELECT json_agg(json_build_object('name', c.name, 'media_id', c."mediaId", 'sha256', c.sha256,
                                                         'size_bytes', c."sizeBytes"))
                         FROM "ListingCode" c WHERE c."listingId" = l.id), '[]'::json) AS pins,
             EXISTS (SELECT 1 FROM "ApprovalGrant" g WHERE g."userId" = q.user_id AND g."versionId" = v.id AND g.tool = q.tool
                        AND g."revokedAt" IS NULL) AS granted,
             p."allowPool" AS allow_pool,
             (SELECT count(*)::int FROM "Link" k WHERE k."userId" = q.user_id AND k."revokedAt" IS NULL AND k."runnerEnabled"
                 AND k."lastSeenAt" >= q.since::timestamp) AS own_links,
             CASE WHEN p."allowPool" THEN
               (SELECT count(*)::int FROM "Link" k WHERE k."userId" <> q.user_id AND k."revokedAt" IS NULL AND k."runnerEnabled"
                   AND k."lastSeenAt" >= q.since::timestamp AND k."poolOffer" AND k."poolApprovedAt" IS NOT NULL)
             ELSE 0 END AS pool_links
        FROM "Install" i
        JOIN "Skill" s ON s.id = i."skillId"
        JOIN "SkillVersion" v ON v.id = i."versionId"
        LEFT JOIN "Listing" l ON l."versionId" = v.id
        JOIN "Project" p ON p.id = q.project_id
       WHERE i."userId" = q.user_id AND s.slug = q.slug
   LIMIT 1) ctx`;

const EARLIER_SQL = `
  SELECT id FROM "Step" WHERE "agentId" = $1 AND "idempotencyKey" = $2 AND "createdAt" > $3::timestamp`;

type ContextKey = { userId: string; slug: string; projectId: string; tool: string; since: string };

/** The calls of one turn, read together. */
const contextRow = batchedLookup(async (keys: ContextKey[]) => {
  const { rows } = await sqlPool().query<Row & { n: string }>({
    name: "step-call-contexts",
    text: CONTEXT_SQL,
    values: [
      keys.map((k) => k.userId),
      keys.map((k) => k.slug),
      keys.map((k) => k.projectId),
      keys.map((k) => k.tool),
      keys.map((k) => k.since),
    ],
  });
  const byNumber = new Map(rows.map((row) => [Number(row.n), row]));
  return keys.map((_, i) => byNumber.get(i + 1) ?? null);
});

/**
 * Null when the person has no install of that skill. Two statements (the first shared with the
 * other calls of the same turn, the second only with a key), without a transaction: every check
 * is made again under locks when the step is written.
 */
export async function readCallContext(p: {
  userId: string;
  projectId: string;
  agentId: string;
  slug: string;
  version: string;
  tool: string;
  idempotencyKey: string | null;
  keyReuseAfterMs: number;
  now: Date;
}): Promise<CallContext | null> {
  const pool = sqlPool();
  const since = utcText(new Date(p.now.getTime() - ONLINE_WINDOW_MS));
  const earlier = p.idempotencyKey
    ? pool.query<{ id: string }>({
        name: "step-call-earlier",
        text: EARLIER_SQL,
        values: [p.agentId, p.idempotencyKey, utcText(new Date(p.now.getTime() - p.keyReuseAfterMs))],
      })
    : null;
  const [row, before] = await Promise.all([
    contextRow({ userId: p.userId, slug: p.slug, projectId: p.projectId, tool: p.tool, since }),
    earlier,
  ]);
  if (!row) return null;
  const scanLetsRun =
    row.listing_id !== null &&
    row.status !== "failed" &&
    row.status !== "scanning" &&
    checkFindingsAck(row.status, row.findings_hash, row.findings_ack).ok;
  return {
    runnable:
      row.version === p.version && row.enabled && !row.retired && scanLetsRun && row.install_project === p.projectId,
    versionId: row.version_id,
    tool: row.tool,
    pins: row.pins,
    granted: row.granted,
    allowPool: row.allow_pool,
    links: { own: row.own_links, pool: row.pool_links },
    earlierStepId: before?.rows[0]?.id ?? null,
  };
}
