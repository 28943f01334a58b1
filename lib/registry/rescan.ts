// Rescan on upgrade: every stored version whose verdict came from an older scanner is scanned again
// with the current one (lib/scan SCANNER_VERSION). A version whose verdict gets worse has its
// listing updated, its "always allow" grants revoked (the next call asks again), a notice on each
// install saying why (shown on My skills), its queued and running jobs withdrawn when it now
// fails, and an audit event for the author and for every person who installed it.
import "server-only";
import { recordAudit } from "../audit";
import { db, type Prisma } from "../db";
import { withdraw } from "../runs/lifecycle";
import { SCANNER_VERSION, type Verdict } from "../scan";
import { scanStoredVersion, type FindingRow } from "./scan-version";

/** Versions rescanned per job; a job that leaves more queues the next one. */
export const RESCAN_BATCH = 50;
export const RESCAN_ACTOR = "system:scanner";

const RANK: Record<Verdict, number> = { passed: 0, flagged: 1, failed: 2 };

export type RescanNotice = {
  version_id: string;
  from: Verdict;
  to: Verdict;
  at: string;
  scanner_version: string;
  /** The rules of the findings that made it worse, each once. */
  rules: string[];
  grants_revoked: number;
};

export type RescanOutcome = {
  versionId: string;
  from: Verdict;
  to: Verdict;
  worse: boolean;
  stored: boolean;
};

const outdated = {
  status: { in: ["passed", "flagged", "failed"] },
  OR: [{ scannerVersion: null }, { scannerVersion: { not: SCANNER_VERSION } }],
} satisfies Prisma.SkillVersionWhereInput;

export async function hasOutdatedScans(): Promise<boolean> {
  return (await db.skillVersion.findFirst({ where: outdated, select: { id: true } })) !== null;
}

/** Rescans up to `limit` outdated versions, oldest first; `more` says whether any are left. */
export async function rescanOutdated(limit = RESCAN_BATCH): Promise<{ rescanned: RescanOutcome[]; more: boolean }> {
  const rows = await db.skillVersion.findMany({
    where: outdated,
    select: { id: true },
    orderBy: [{ publishedAt: "asc" }, { id: "asc" }],
    take: limit + 1,
  });
  const rescanned: RescanOutcome[] = [];
  for (const { id } of rows.slice(0, limit)) {
    const r = await rescanVersion(id);
    if (r) rescanned.push(r);
  }
  return { rescanned, more: rows.length > limit };
}

/** Worse: a higher verdict, or a flagged version flagged for a rule it was not flagged for before. */
function isWorse(from: Verdict, to: Verdict, before: Set<string>, after: FindingRow[]): boolean {
  if (RANK[to] !== RANK[from]) return RANK[to] > RANK[from];
  return to === "flagged" && after.some((f) => !before.has(f.ruleId));
}

export async function rescanVersion(versionId: string): Promise<RescanOutcome | null> {
  const version = await db.skillVersion.findUnique({
    where: { id: versionId },
    include: {
      skill: { select: { slug: true, ownerId: true } },
      listing: { include: { code: true, findings: { select: { ruleId: true } } } },
    },
  });
  if (!version?.listing || version.status === "scanning" || version.scannerVersion === SCANNER_VERSION) return null;
  const from = version.status as Verdict;
  const { verdict: to, rows, hash, asks, outsideScripts } = await scanStoredVersion(version);
  const before = new Set(version.listing.findings.map((f) => f.ruleId));
  const worse = isWorse(from, to, before, rows);
  const listingId = version.listing.id;
  const at = new Date();

  const stored = await db.$transaction(async (tx) => {
    // Conditional on what was read: a second worker, or a scan in between, leaves it alone.
    const moved = await tx.skillVersion.updateMany({
      where: { id: versionId, status: from, scannerVersion: version.scannerVersion },
      data: { status: to, scannerVersion: SCANNER_VERSION, asks, outsideScripts },
    });
    if (moved.count === 0) return false;
    if (hash !== version.listing!.findingsHash) {
      await tx.scanFinding.deleteMany({ where: { listingId } });
      await tx.scanFinding.createMany({ data: rows.map((r) => ({ ...r, listingId })) });
      await tx.listing.update({ where: { id: listingId }, data: { scannedAt: at, findingsHash: hash } });
    }
    const base = { slug: version.skill.slug, version: version.version, from, to, scanner_version: SCANNER_VERSION };
    if (!worse) {
      if (from !== to) await auditEvent(tx, version.skill.ownerId, "scan.verdict_changed", versionId, base);
      return true;
    }
    const rules = [...new Set(rows.map((r) => r.ruleId))];
    const grants = await tx.approvalGrant.findMany({
      where: { versionId, revokedAt: null },
      select: { id: true, userId: true },
    });
    await tx.approvalGrant.updateMany({ where: { id: { in: grants.map((g) => g.id) } }, data: { revokedAt: at } });
    const installs = await tx.install.findMany({ where: { versionId }, select: { id: true, userId: true } });
    for (const install of installs) {
      const notice: RescanNotice = {
        version_id: versionId,
        from,
        to,
        at: at.toISOString(),
        scanner_version: SCANNER_VERSION,
        rules,
        grants_revoked: grants.filter((g) => g.userId === install.userId).length,
      };
      await tx.install.update({ where: { id: install.id }, data: { rescanNotice: notice } });
      await auditEvent(tx, install.userId, "scan.verdict_worse", versionId, {
        ...base,
        rules,
        install_id: install.id,
        grants_revoked: notice.grants_revoked,
      });
    }
    await auditEvent(tx, version.skill.ownerId, "scan.verdict_worse", versionId, {
      ...base,
      rules,
      installs: installs.length,
      grants_revoked: grants.length,
    });
    return true;
  });
  // Nothing of a version that now fails runs any more, queued or running.
  if (stored && worse && to === "failed") await withdraw({ versionIds: [versionId] }, "scanFailed");
  return { versionId, from, to, worse, stored };
}

function auditEvent(
  tx: Prisma.TransactionClient,
  userId: string | null,
  action: "scan.verdict_changed" | "scan.verdict_worse",
  versionId: string,
  data: Prisma.InputJsonObject,
) {
  return recordAudit(tx, { userId, actor: RESCAN_ACTOR, action, subjectType: "skill_version", subjectId: versionId, data });
}
