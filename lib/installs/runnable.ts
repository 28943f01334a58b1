// The check the steps code makes every time an agent calls a tool: this person has exactly this
// version installed, enabled, not retired, and its scan allows it to run. Read fresh from the
// database on every call, so a disable stops the very next call.
import "server-only";
import { db } from "../db";
import { AppError } from "../errors";
import { checkFindingsAck } from "./rules";

export async function requireRunnableInstall(p: { userId: string; slug: string; version: string }) {
  const row = await db.install.findFirst({
    where: { userId: p.userId, skill: { slug: p.slug } },
    include: { skill: true, version: { include: { listing: { include: { code: true } } } } },
  });
  const ref = `${p.slug}@${p.version}`;
  if (!row || row.version.version !== p.version) {
    throw new AppError(
      "step.skill_not_installed",
      row
        ? `${ref} is not installed: this person has ${p.slug}@${row.version.version}. Call that version, or install ${ref} first.`
        : `${ref} is not installed. The person installs it on the skill's install page first.`,
    );
  }
  if (!row.enabled) {
    throw new AppError("step.skill_disabled", `${ref} is disabled. The person can enable it again under My skills.`);
  }
  const { version, skill, ...install } = row;
  if (version.retiredAt) {
    throw new AppError(
      "step.version_retired",
      `${ref} was retired by its author and can no longer run. Install a newer version.`,
    );
  }
  const listing = version.listing;
  const ack = checkFindingsAck(version.status, listing?.findingsHash ?? null, row.findingsAckHash);
  if (!listing || version.status === "failed" || version.status === "scanning" || !ack.ok) {
    throw new AppError(
      "step.scan_blocked",
      version.status === "flagged"
        ? `${ref}'s scan findings changed since the person confirmed them: they confirm them again on its install page.`
        : `${ref} cannot run: its scan ${version.status === "failed" ? "failed" : "is not done yet"}.`,
    );
  }
  return { install, skill, version, listing };
}

/**
 * The same check for a step that already exists (approval, dispatch): by the step's version id.
 * A step created before the person disabled or moved the install must not run after it.
 */
export async function requireRunnableVersion(p: { userId: string; versionId: string }) {
  const v = await db.skillVersion.findUnique({
    where: { id: p.versionId },
    select: { version: true, skill: { select: { slug: true } } },
  });
  if (!v) throw new AppError("step.skill_not_installed", "That skill version is not installed.");
  return requireRunnableInstall({ userId: p.userId, slug: v.skill.slug, version: v.version });
}

/** True when the person said "always allow" for exactly this version's tool and has not revoked it. */
export async function hasAlwaysAllow(p: { userId: string; versionId: string; tool: string }): Promise<boolean> {
  const grant = await db.approvalGrant.findFirst({
    where: { userId: p.userId, versionId: p.versionId, tool: p.tool, revokedAt: null },
    select: { id: true },
  });
  return grant !== null;
}
