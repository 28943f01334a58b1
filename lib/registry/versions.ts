// Reading the registry (a skill, its versions, `latest`) and retiring a version: the ADR's rollback.
// A retired version stays readable but can no longer be installed or run, not even a run already
// on its way.
import "server-only";
import { db } from "../db";
import { AppError, notFound } from "../errors";
import { appendToLog } from "../tlog";
import { withdraw } from "../runs/lifecycle";
import { compareSemver } from "./semver";
import { recordAudit } from "../audit";

type VersionRow = {
  version: string;
  semverMajor: number;
  semverMinor: number;
  semverPatch: number;
  prerelease: string | null;
  retiredAt: Date | null;
};

/** The newest version that is not retired, by semver precedence; null when every one is retired. */
export function latestOf<T extends VersionRow>(versions: T[]): T | null {
  const live = versions.filter((v) => !v.retiredAt);
  return live.sort((a, b) => compareSemver(b, a))[0] ?? null;
}

export async function getSkill(slug: string) {
  const skill = await db.skill.findUnique({
    where: { slug },
    include: {
      owner: { select: { handle: true, name: true } },
      versions: {
        select: {
          id: true,
          version: true,
          semverMajor: true,
          semverMinor: true,
          semverPatch: true,
          prerelease: true,
          status: true,
          runs: true,
          contract: true,
          integrity: true,
          name: true,
          summary: true,
          publishedAt: true,
          retiredAt: true,
        },
      },
    },
  });
  if (!skill) throw notFound("That skill");
  const versions = [...skill.versions].sort((a, b) => compareSemver(b, a));
  return { ...skill, versions, latest: latestOf(versions)?.version ?? null };
}

export async function getVersion(slug: string, version: string) {
  const row = await db.skillVersion.findFirst({
    where: { version, skill: { slug } },
    include: { skill: { include: { owner: { select: { handle: true, name: true } } } } },
  });
  if (!row) throw notFound("That skill version");
  return row;
}

/** Retires a version and logs the retire in the same transaction. `retiredAt` is for the demo seed only. */
export async function retireVersion(p: { ownerId: string; slug: string; version: string; retiredAt?: Date }) {
  const row = await db.skillVersion.findFirst({
    where: { version: p.version, skill: { slug: p.slug } },
    select: { id: true, retiredAt: true, skill: { select: { ownerId: true } } },
  });
  if (!row) throw notFound("That skill version");
  if (row.skill.ownerId !== p.ownerId) {
    throw new AppError("skill.not_owner", "Only the skill's author can retire its versions.");
  }
  if (row.retiredAt) return { slug: p.slug, version: p.version, retiredAt: row.retiredAt };
  const retiredAt = p.retiredAt ?? new Date();
  const retired = await db.$transaction(async (tx) => {
    // Conditional, so two retires at once log one event: the loser reads the winner's time.
    const { count } = await tx.skillVersion.updateMany({ where: { id: row.id, retiredAt: null }, data: { retiredAt } });
    if (count === 0) return null;
    await recordAudit(tx, {
        userId: p.ownerId,
        actor: `user:${p.ownerId}`,
        action: "skill.retired",
        subjectType: "skill_version",
        subjectId: row.id,
        data: { slug: p.slug, version: p.version },
      });
    await appendToLog(tx, { versionId: row.id, event: "retire" });
    return retiredAt;
  });
  const at = retired ?? (await db.skillVersion.findUniqueOrThrow({ where: { id: row.id } })).retiredAt!;
  // Nothing of a retired version runs any more: its queued and running jobs are withdrawn now, and
  // every Link that was given one hears its integrity as revoked.
  if (retired) await withdraw({ versionIds: [row.id] }, "retired");
  return { slug: p.slug, version: p.version, retiredAt: at };
}
