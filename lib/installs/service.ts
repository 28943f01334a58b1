// A person's installs: install (or move to another version), enable, disable, uninstall, and the
// "always allow" grants that go with a version. One Install per person per skill; moving it to
// another version drops the grants, because "always allow" covers exactly one version's tool.
import "server-only";
import { getDefaultProject } from "../auth/users";
import { db, Prisma } from "../db";
import { AppError, notFound } from "../errors";
import { channels, notify } from "../events";
import { compareSemver } from "../registry/semver";
import type { RescanNotice } from "../registry/rescan";
import { latestOf } from "../registry/versions";
import { withdraw } from "../runs/lifecycle";
import { checkFindingsAck, installBlock } from "./rules";
import { recordAudit, type AuditAction } from "../audit";

type Tx = Prisma.TransactionClient;

export type InstallView = {
  id: string;
  slug: string;
  name: string;
  version: string;
  version_id: string;
  status: "scanning" | "passed" | "flagged" | "failed";
  runs: "prompt" | "sandbox";
  trust: "first_party" | "community";
  enabled: boolean;
  retired_at: string | null;
  /** A newer version that can be installed, if there is one. */
  latest: string | null;
  findings_ack: string | null;
  /** Why its tools cannot run right now even though it is installed (null when they can). */
  blocked: "retired" | "scan_failed" | "scan_pending" | "findings_changed" | null;
  /** Set when a newer scanner rescanned this version and its verdict got worse: why, and when. */
  rescan: RescanNotice | null;
  installed_at: string;
  updated_at: string;
};

export type InstallOutcome = "installed" | "upgraded" | "downgraded" | "unchanged";

const installInclude = {
  skill: {
    select: {
      slug: true,
      trust: true,
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
  version: {
    select: {
      id: true,
      version: true,
      name: true,
      status: true,
      runs: true,
      retiredAt: true,
      listing: { select: { findingsHash: true } },
    },
  },
} satisfies Prisma.InstallInclude;

type InstallRow = Prisma.InstallGetPayload<{ include: typeof installInclude }>;

function toView(row: InstallRow): InstallView {
  // Only versions a person could install count as "newer": not retired, not failed, not scanning.
  const candidates = row.skill.versions.filter((v) => !installBlock(v));
  const newest = latestOf(candidates);
  const latest = newest && compareSemver(newest.version, row.version.version) > 0 ? newest.version : null;
  return {
    id: row.id,
    slug: row.skill.slug,
    name: row.version.name,
    version: row.version.version,
    version_id: row.version.id,
    status: row.version.status,
    runs: row.version.runs,
    trust: row.skill.trust,
    enabled: row.enabled,
    retired_at: row.version.retiredAt?.toISOString() ?? null,
    latest,
    findings_ack: row.findingsAckHash,
    blocked: blockedReason(row),
    rescan: rescanNoticeOf(row),
    installed_at: row.installedAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  };
}

function rescanNoticeOf(row: InstallRow): RescanNotice | null {
  const n = row.rescanNotice as RescanNotice | null;
  return n && typeof n === "object" && n.version_id === row.version.id ? n : null;
}

function blockedReason(row: InstallRow): InstallView["blocked"] {
  const v = row.version;
  if (v.retiredAt) return "retired";
  if (v.status === "failed") return "scan_failed";
  if (v.status === "scanning") return "scan_pending";
  const ack = checkFindingsAck(v.status, v.listing?.findingsHash ?? null, row.findingsAckHash);
  return ack.ok ? null : "findings_changed";
}

const installNotFound = () => new AppError("install.not_found", "That install was not found.");

function audit(tx: Tx, userId: string, action: AuditAction, subjectType: string, subjectId: string, data: object) {
  return recordAudit(tx, { userId, actor: `user:${userId}`, action, subjectType, subjectId, data: data as Prisma.InputJsonObject });
}

/** Revokes every active "always allow" of this person for any version of the skill. */
async function revokeSkillGrants(tx: Tx, userId: string, skillId: string, now: Date): Promise<number> {
  const { count } = await tx.approvalGrant.updateMany({
    where: { userId, revokedAt: null, version: { skillId } },
    data: { revokedAt: now },
  });
  return count;
}

export type InstallInput = { userId: string; slug: string; version: string; findingsAck?: string | null };

export type InstallResult = {
  install: InstallView;
  outcome: InstallOutcome;
  /** The version installed before, when this moved the install. */
  previous: string | null;
  grantsRevoked: number;
};

/**
 * Installs one version for a person, or moves their install of the skill to it. Refuses a retired,
 * failed or still-scanning version, and a flagged one without `findingsAck` equal to the listing's
 * current findings hash. Skill.installsCount changes in the same transaction as the Install row.
 */
export async function installSkill(input: InstallInput): Promise<InstallResult> {
  const target = await db.skillVersion.findFirst({
    where: { version: input.version, skill: { slug: input.slug } },
    select: {
      id: true,
      version: true,
      status: true,
      retiredAt: true,
      skillId: true,
      listing: { select: { findingsHash: true } },
    },
  });
  if (!target) throw notFound("That skill version");
  const block = installBlock(target);
  if (block) throw new AppError(block.code, block.reason);
  const findingsHash = target.listing?.findingsHash ?? null;
  const ack = checkFindingsAck(target.status, findingsHash, input.findingsAck);
  if (!ack.ok) throw new AppError(ack.code, ack.reason, { details: { findings_hash: findingsHash } });

  const project = await getDefaultProject(input.userId);
  if (!project) throw new AppError("project.not_found", "You have no default project to install into.");

  const attempt = () =>
    db.$transaction(async (tx) => {
      const now = new Date();
      const existing = await tx.install.findUnique({
        where: { userId_skillId: { userId: input.userId, skillId: target.skillId } },
        select: { id: true, versionId: true, findingsAckHash: true, version: { select: { version: true } } },
      });
      if (!existing) {
        const created = await tx.install.create({
          data: {
            userId: input.userId,
            projectId: project.id,
            skillId: target.skillId,
            versionId: target.id,
            findingsAckHash: ack.ackHash,
          },
          select: { id: true },
        });
        await tx.skill.update({ where: { id: target.skillId }, data: { installsCount: { increment: 1 } } });
        // A grant left from an earlier install (uninstall revokes them; this is belt and braces).
        const grantsRevoked = await revokeSkillGrants(tx, input.userId, target.skillId, now);
        await audit(tx, input.userId, "skill.installed", "install", created.id, {
          slug: input.slug,
          version: target.version,
          findings_ack: ack.ackHash,
        });
        return { id: created.id, outcome: "installed" as const, previous: null, grantsRevoked };
      }
      if (existing.versionId === target.id) {
        if (ack.ackHash && ack.ackHash !== existing.findingsAckHash) {
          await tx.install.update({ where: { id: existing.id }, data: { findingsAckHash: ack.ackHash } });
        }
        return { id: existing.id, outcome: "unchanged" as const, previous: null, grantsRevoked: 0 };
      }
      const outcome: InstallOutcome =
        compareSemver(target.version, existing.version.version) > 0 ? "upgraded" : "downgraded";
      await tx.install.update({
        where: { id: existing.id },
        data: { versionId: target.id, findingsAckHash: ack.ackHash },
      });
      // "Always allow" covers exactly one version's tool: a new version asks again.
      const grantsRevoked = await revokeSkillGrants(tx, input.userId, target.skillId, now);
      await audit(tx, input.userId, `skill.${outcome}`, "install", existing.id, {
        slug: input.slug,
        from: existing.version.version,
        to: target.version,
        grants_revoked: grantsRevoked,
        findings_ack: ack.ackHash,
      });
      return {
        id: existing.id,
        outcome,
        previous: existing.version.version,
        previousVersionId: existing.versionId,
        grantsRevoked,
      };
    });

  let done;
  try {
    done = await attempt();
  } catch (err) {
    // Two first installs at once: the loser finds the winner's row and takes the update path.
    if (!(err instanceof Prisma.PrismaClientKnownRequestError && err.code === "P2002")) throw err;
    done = await attempt();
  }
  if (done.outcome !== "unchanged") await installsChanged(input.userId);
  // The version it moved away from no longer runs for this person: its runs on their way stop.
  const movedFrom = "previousVersionId" in done ? done.previousVersionId : undefined;
  if (movedFrom) await withdraw({ userId: input.userId, versionIds: [movedFrom] }, "moved");
  const row = await db.install.findUniqueOrThrow({ where: { id: done.id }, include: installInclude });
  return { install: toView(row), outcome: done.outcome, previous: done.previous, grantsRevoked: done.grantsRevoked };
}

export async function listInstalls(userId: string): Promise<InstallView[]> {
  const rows = await db.install.findMany({
    where: { userId },
    include: installInclude,
    orderBy: [{ installedAt: "desc" }, { id: "asc" }],
  });
  return rows.map(toView);
}

export async function getInstall(userId: string, installId: string): Promise<InstallView> {
  const row = await db.install.findFirst({ where: { id: installId, userId }, include: installInclude });
  if (!row) throw installNotFound();
  return toView(row);
}

/** Turns a skill on or off for its person. Off takes effect for the very next tool call. */
export async function setInstallEnabled(p: {
  userId: string;
  installId: string;
  enabled: boolean;
}): Promise<InstallView> {
  const skillId = await db.$transaction(async (tx) => {
    const row = await tx.install.findFirst({
      where: { id: p.installId, userId: p.userId },
      select: {
        id: true,
        enabled: true,
        skillId: true,
        skill: { select: { slug: true } },
        version: { select: { version: true } },
      },
    });
    if (!row) throw installNotFound();
    if (row.enabled === p.enabled) return row.skillId;
    await tx.install.update({ where: { id: row.id }, data: { enabled: p.enabled } });
    await audit(tx, p.userId, p.enabled ? "skill.enabled" : "skill.disabled", "install", row.id, {
      slug: row.skill.slug,
      version: row.version.version,
    });
    return row.skillId;
  });
  // Off stops what is already on its way too: queued jobs never start, running ones are killed.
  if (!p.enabled) await withdrawSkill(p.userId, skillId, "disabled");
  await installsChanged(p.userId);
  return getInstall(p.userId, p.installId);
}

/** Cancels this person's unfinished runs of any version of the skill (instant disable). */
async function withdrawSkill(userId: string, skillId: string, reason: "disabled" | "uninstalled") {
  const versions = await db.skillVersion.findMany({ where: { skillId }, select: { id: true } });
  await withdraw({ userId, versionIds: versions.map((v) => v.id) }, reason);
}

export async function uninstallSkill(p: { userId: string; installId: string }) {
  const done = await db.$transaction(async (tx) => {
    const row = await tx.install.findFirst({
      where: { id: p.installId, userId: p.userId },
      select: { id: true, skillId: true, skill: { select: { slug: true } }, version: { select: { version: true } } },
    });
    if (!row) throw installNotFound();
    const { count } = await tx.install.deleteMany({ where: { id: row.id, userId: p.userId } });
    if (count === 0) throw installNotFound();
    await tx.skill.updateMany({
      where: { id: row.skillId, installsCount: { gt: 0 } },
      data: { installsCount: { decrement: 1 } },
    });
    const grantsRevoked = await revokeSkillGrants(tx, p.userId, row.skillId, new Date());
    await audit(tx, p.userId, "skill.uninstalled", "install", row.id, {
      slug: row.skill.slug,
      version: row.version.version,
      grants_revoked: grantsRevoked,
    });
    return {
      skillId: row.skillId,
      view: {
        id: row.id,
        slug: row.skill.slug,
        version: row.version.version,
        uninstalled: true,
        grants_revoked: grantsRevoked,
      },
    };
  });
  await withdrawSkill(p.userId, done.skillId, "uninstalled");
  await installsChanged(p.userId);
  return done.view;
}

/** Wakes the person's MCP clients to re-read their tools; a lost wake-up is caught by their re-check. */
const installsChanged = (userId: string) => notify(channels.userInstalls(userId)).catch(() => undefined);

// --- "Always allow" grants -----------------------------------------------------------------

export type GrantView = {
  id: string;
  slug: string;
  version: string;
  version_id: string;
  tool: string;
  created_at: string;
  revoked_at: string | null;
};

const grantInclude = {
  version: { select: { id: true, version: true, skill: { select: { slug: true } } } },
} satisfies Prisma.ApprovalGrantInclude;

function grantView(g: Prisma.ApprovalGrantGetPayload<{ include: typeof grantInclude }>): GrantView {
  return {
    id: g.id,
    slug: g.version.skill.slug,
    version: g.version.version,
    version_id: g.version.id,
    tool: g.tool,
    created_at: g.createdAt.toISOString(),
    revoked_at: g.revokedAt?.toISOString() ?? null,
  };
}

/** The person's active "always allow" grants, per skill version and tool. */
export async function listGrants(userId: string): Promise<GrantView[]> {
  const rows = await db.approvalGrant.findMany({
    where: { userId, revokedAt: null },
    include: grantInclude,
    orderBy: [{ createdAt: "desc" }, { id: "asc" }],
  });
  return rows.map(grantView);
}

export async function revokeGrant(p: { userId: string; grantId: string }): Promise<GrantView> {
  const view = await db.$transaction(async (tx) => {
    const row = await tx.approvalGrant.findFirst({ where: { id: p.grantId, userId: p.userId }, include: grantInclude });
    if (!row) throw new AppError("grant.not_found", "That grant was not found.");
    if (row.revokedAt) return grantView(row);
    const revoked = await tx.approvalGrant.update({
      where: { id: row.id },
      data: { revokedAt: new Date() },
      include: grantInclude,
    });
    await audit(tx, p.userId, "grant.revoked", "approval_grant", row.id, {
      slug: row.version.skill.slug,
      version: row.version.version,
      tool: row.tool,
    });
    return grantView(revoked);
  });
  // Runs of that version's tool still on their way are cancelled with the grant.
  await withdraw({ userId: p.userId, versionIds: [view.version_id], tool: view.tool }, "grantRevoked");
  return view;
}

/**
 * Records "always allow" for exactly one installed version's tool (the steps code calls it when a
 * person approves with "always"). Idempotent: an active grant is returned as it is.
 */
export async function grantAlwaysAllow(p: { userId: string; versionId: string; tool: string }): Promise<GrantView> {
  const install = await db.install.findFirst({
    where: { userId: p.userId, versionId: p.versionId },
    select: { version: { select: { document: true } } },
  });
  if (!install) throw new AppError("step.skill_not_installed", "Install this version of the skill first.");
  const tools = (install.version.document as { tools?: { name: string }[] }).tools ?? [];
  if (!tools.some((t) => t.name === p.tool)) {
    throw new AppError("step.tool_unknown", `This version has no tool named "${p.tool}".`, { status: 422 });
  }
  return db.$transaction(async (tx) => {
    const active = await tx.approvalGrant.findFirst({
      where: { userId: p.userId, versionId: p.versionId, tool: p.tool, revokedAt: null },
      include: grantInclude,
    });
    if (active) return grantView(active);
    const created = await tx.approvalGrant.create({
      data: { userId: p.userId, versionId: p.versionId, tool: p.tool },
      include: grantInclude,
    });
    await audit(tx, p.userId, "grant.created", "approval_grant", created.id, {
      slug: created.version.skill.slug,
      version: created.version.version,
      tool: p.tool,
    });
    return grantView(created);
  });
}
