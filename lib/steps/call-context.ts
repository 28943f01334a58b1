// Everything a tool call needs to be decided, read in one statement (one round trip) instead of the
// dozen Prisma queries the checks make one by one: the install and its version, listing and pinned
// code, the grant, the project's pool setting, how many Links could take the job, and an earlier
// step with the same idempotency key. A call that is not plainly runnable goes the long way
// (lib/installs' own checks), which also words the refusal.
import "server-only";
import { sqlPool, utcText } from "../db";
import { checkFindingsAck } from "../installs";
import { ONLINE_WINDOW_MS } from "../links/service";
import type { PinnedInput } from "../protocol";

export type CallContext = {
  /** The install exists, is this version, enabled, in the agent's project, and its scan lets it run. */
  runnable: boolean;
  versionId: string;
  document: unknown;
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
  document: unknown;
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

const CONTEXT_SQL = `
  SELECT v.id AS version_id, v.version, v.document, v.status::text AS status, v."retiredAt" IS NOT NULL AS retired,
         i.enabled, i."projectId" AS install_project, i."findingsAckHash" AS findings_ack,
         l.id AS listing_id, l."findingsHash" AS findings_hash,
         coalesce((SELECT json_agg(json_build_object('name', c.name, 'media_id', c."mediaId", 'sha256', c.sha256,
                                                     'size_bytes', c."sizeBytes"))
                     FROM "ListingCode" c WHERE c."listingId" = l.id), '[]'::json) AS pins,
         EXISTS (SELECT 1 FROM "ApprovalGrant" g WHERE g."userId" = $1 AND g."versionId" = v.id AND g.tool = $4
                    AND g."revokedAt" IS NULL) AS granted,
         p."allowPool" AS allow_pool,
         (SELECT count(*)::int FROM "Link" k WHERE k."userId" = $1 AND k."revokedAt" IS NULL AND k."runnerEnabled"
             AND k."lastSeenAt" >= $5::timestamp) AS own_links,
         CASE WHEN p."allowPool" THEN
           (SELECT count(*)::int FROM "Link" k WHERE k."userId" <> $1 AND k."revokedAt" IS NULL AND k."runnerEnabled"
               AND k."lastSeenAt" >= $5::timestamp AND k."poolOffer" AND k."poolApprovedAt" IS NOT NULL)
         ELSE 0 END AS pool_links
    FROM "Install" i
    JOIN "Skill" s ON s.id = i."skillId"
    JOIN "SkillVersion" v ON v.id = i."versionId"
    LEFT JOIN "Listing" l ON l."versionId" = v.id
    JOIN "Project" p ON p.id = $3
   WHERE i."userId" = $1 AND s.slug = $2`;

const EARLIER_SQL = `
  SELECT id FROM "Step" WHERE "agentId" = $1 AND "idempotencyKey" = $2 AND "createdAt" > $3::timestamp`;

/**
 * Null when the person has no install of that skill. Two statements on one pooled connection
 * (the second only with a key), without a transaction: every check is made again under locks when
 * the step is written.
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
  const [found, before] = await Promise.all([
    pool.query<Row>({
      name: "step-call-context",
      text: CONTEXT_SQL,
      values: [p.userId, p.slug, p.projectId, p.tool, since],
    }),
    earlier,
  ]);
  const row = found.rows[0];
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
    document: row.document,
    pins: row.pins,
    granted: row.granted,
    allowPool: row.allow_pool,
    links: { own: row.own_links, pool: row.pool_links },
    earlierStepId: before?.rows[0]?.id ?? null,
  };
}
