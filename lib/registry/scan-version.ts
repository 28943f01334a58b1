// Scans one published version and stores its findings and verdict on the listing. The code scanned
// is the pinned Media bytes (re-verified by sha256), never the document's copy: the bytes that run
// are the bytes that were scanned. Idempotent: a retry or a second worker changes nothing.
import "server-only";
import type { SkillDocument } from "../contracts";
import { db } from "../db";
import { AppError } from "../errors";
import { channels, notify } from "../events";
import { getMedia } from "../media";
import { auditSkillDocument, loadInstructionParsers, type AuditFinding } from "../instructions";
import { SCANNER_VERSION, scanSkill, verdictOf } from "../scan";
import { findingsHash, listingFindings } from "./listing";

/** A version is never left `scanning` longer than this: the sweeper queues it again. */
export const SCAN_STUCK_AFTER_MS = 2 * 60_000;

const EXCERPT_MAX = 200;

export type ScanOutcome = {
  versionId: string;
  status: "passed" | "flagged" | "failed";
  findings: number;
  stored: boolean;
};

export async function scanVersion(versionId: string): Promise<ScanOutcome> {
  const version = await db.skillVersion.findUnique({
    where: { id: versionId },
    include: { listing: { include: { code: true } }, skill: { select: { ownerId: true } } },
  });
  if (!version?.listing) throw new AppError("not_found", `No version ${versionId} to scan.`);
  if (version.status !== "scanning") {
    const count = await db.scanFinding.count({ where: { listingId: version.listing.id } });
    return { versionId, status: version.status, findings: count, stored: false };
  }

  const { verdict, rows, hash, asks, outsideScripts } = await scanStoredVersion(version);
  const listingId = version.listing.id;
  const stored = await db.$transaction(async (tx) => {
    // Only the first writer moves the version out of `scanning`; others roll back their rows.
    const moved = await tx.skillVersion.updateMany({
      where: { id: versionId, status: "scanning" },
      data: { status: verdict, scannerVersion: SCANNER_VERSION, asks, outsideScripts },
    });
    if (moved.count === 0) return false;
    await tx.scanFinding.deleteMany({ where: { listingId } });
    await tx.scanFinding.createMany({ data: rows.map((r) => ({ ...r, listingId })) });
    await tx.listing.update({ where: { id: listingId }, data: { scannedAt: new Date(), findingsHash: hash } });
    return true;
  });
  // A wake-up for the author's open pages; missing it costs a reload, never a verdict.
  if (stored) await notify(channels.userScans(version.skill.ownerId)).catch(() => undefined);
  return { versionId, status: verdict, findings: rows.length, stored };
}

type StoredVersion = {
  document: unknown;
  listing: { code: { name: string; mediaId: string; sha256: string }[] } | null;
};
export type FindingRow = ReturnType<typeof toRow>;

/**
 * Scans a stored version's pinned code and audits its instructions, Markdown and bundled scripts
 * with the current scanner, on one scale: verdict, finding rows, hash, and what it asks for.
 */
export async function scanStoredVersion(version: StoredVersion) {
  const document = version.document as SkillDocument;
  const pinned = new Map<string, string>();
  for (const pin of version.listing?.code ?? []) {
    const { object, bytes } = await getMedia(pin.mediaId);
    if (object.sha256 !== pin.sha256) {
      throw new AppError("media.integrity_mismatch", `The pinned code ${pin.name} does not match its Media object.`);
    }
    pinned.set(pin.name, bytes.toString("utf8"));
  }
  const tools = document.contract === "actor.skill@2" && document.runs === "sandbox" ? (document.tools ?? []) : [];
  const resources = document.resources.map((r) => ({ ...r, text: pinned.get(r.name) ?? r.text }));
  const code = scanSkill({ resources, tools });
  await loadInstructionParsers();
  const audit = auditSkillDocument({ instructions: document.instructions, resources, tools });
  const findings: AuditFinding[] = [...code.findings, ...audit.findings];
  const rows = findings.map(toRow);
  return {
    verdict: verdictOf(findings),
    rows,
    hash: findingsHash(listingFindings(rows)),
    asks: audit.asks,
    outsideScripts: audit.scripts.map((x) => x.name),
  };
}

function toRow(f: AuditFinding) {
  return {
    ruleId: f.rule,
    severity: f.severity,
    tool: f.tool ?? null,
    resource: f.resource,
    line: Math.max(1, f.line),
    column: Math.max(1, f.column),
    excerpt: f.excerpt.slice(0, EXCERPT_MAX),
    message: f.message,
  };
}

/** Versions left in `scanning` longer than SCAN_STUCK_AFTER_MS (a lost job, a crashed worker). */
export async function stuckScans(now = new Date()): Promise<string[]> {
  const rows = await db.skillVersion.findMany({
    where: { status: "scanning", publishedAt: { lt: new Date(now.getTime() - SCAN_STUCK_AFTER_MS) } },
    select: { id: true },
    take: 500,
  });
  return rows.map((r) => r.id);
}
