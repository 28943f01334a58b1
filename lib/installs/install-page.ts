// Everything the install page shows for one version: what it asks for in plain words, its scan
// and findings, its trust level, whether it can be installed and why not, and — when the person
// has another version installed — the capability diff and the grants an install would drop.
import "server-only";
import type { SkillDocument } from "../contracts/types";
import { db } from "../db";
import { notFound } from "../errors";
import { compareSemver } from "../registry/semver";
import { latestOf } from "../registry/versions";
import { capabilitiesOf, diffCapabilities, type Capabilities, type CapabilityDiff } from "./capabilities";
import { installBlock, type InstallBlock } from "./rules";

export type PageFinding = {
  rule: string;
  severity: "fail" | "flag";
  tool: string | null;
  resource: string;
  line: number;
  column: number;
  excerpt: string;
  message: string;
};

export type InstallPlan = {
  skill: { slug: string; trust: "first_party" | "community"; author: { handle: string; name: string } };
  version: {
    id: string;
    version: string;
    name: string;
    summary: string;
    status: "scanning" | "passed" | "flagged" | "failed";
    runs: "prompt" | "sandbox";
    publishedAt: string;
    retiredAt: string | null;
  };
  capabilities: Capabilities;
  findings: PageFinding[];
  findingsHash: string | null;
  /** Why this version cannot be installed (retired, failed, scanning); null when it can. */
  block: InstallBlock | null;
  /** Flagged: the person must confirm they read the findings first. */
  needsAck: boolean;
  /** The newest version that can be installed, when it is not this one. */
  newer: string | null;
  installed: {
    id: string;
    version: string;
    enabled: boolean;
    sameVersion: boolean;
    /** Flagged, and the findings changed since the person confirmed them: they confirm again. */
    ackStale: boolean;
    /** Active "always allow" grants this person has for the installed version's tools. */
    grantTools: string[];
  } | null;
  diff: CapabilityDiff | null;
};

export async function installPlan(p: { slug: string; version: string; userId: string | null }): Promise<InstallPlan> {
  const row = await db.skillVersion.findFirst({
    where: { version: p.version, skill: { slug: p.slug } },
    include: {
      skill: {
        include: {
          owner: { select: { handle: true, name: true } },
          versions: {
            select: {
              version: true,
              semverMajor: true,
              semverMinor: true,
              semverPatch: true,
              prerelease: true,
              retiredAt: true,
              status: true,
            },
          },
        },
      },
      listing: {
        include: { findings: { orderBy: [{ tool: "asc" }, { resource: "asc" }, { line: "asc" }, { column: "asc" }] } },
      },
    },
  });
  if (!row) throw notFound("That skill version");
  const document = row.document as unknown as SkillDocument;

  const installable = row.skill.versions.filter((v) => !installBlock(v));
  const newest = latestOf(installable);
  const newer = newest && compareSemver(newest.version, row.version) > 0 ? newest.version : null;

  let installed: InstallPlan["installed"] = null;
  let diff: CapabilityDiff | null = null;
  if (p.userId) {
    const mine = await db.install.findUnique({
      where: { userId_skillId: { userId: p.userId, skillId: row.skillId } },
      include: { version: { select: { id: true, version: true, document: true, asks: true, outsideScripts: true } } },
    });
    if (mine) {
      const grants = await db.approvalGrant.findMany({
        where: { userId: p.userId, versionId: mine.versionId, revokedAt: null },
        select: { tool: true },
        orderBy: { tool: "asc" },
      });
      installed = {
        id: mine.id,
        version: mine.version.version,
        enabled: mine.enabled,
        sameVersion: mine.versionId === row.id,
        ackStale:
          mine.versionId === row.id &&
          row.status === "flagged" &&
          mine.findingsAckHash !== (row.listing?.findingsHash ?? null),
        grantTools: [...new Set(grants.map((g) => g.tool))],
      };
      if (!installed.sameVersion) {
        diff = diffCapabilities(mine.version.document as unknown as SkillDocument, document, {
          installed: mine.version,
          next: row,
        });
      }
    }
  }

  return {
    skill: { slug: row.skill.slug, trust: row.skill.trust, author: row.skill.owner },
    version: {
      id: row.id,
      version: row.version,
      name: row.name,
      summary: row.summary,
      status: row.status,
      runs: row.runs,
      publishedAt: row.publishedAt.toISOString(),
      retiredAt: row.retiredAt?.toISOString() ?? null,
    },
    capabilities: capabilitiesOf(document, row),
    findings: (row.listing?.findings ?? []).map((f) => ({
      rule: f.ruleId,
      severity: f.severity,
      tool: f.tool,
      resource: f.resource,
      line: f.line,
      column: f.column,
      excerpt: f.excerpt,
      message: f.message,
    })),
    findingsHash: row.listing?.findingsHash ?? null,
    block: installBlock(row),
    needsAck: row.status === "flagged",
    newer,
    installed,
    diff,
  };
}
