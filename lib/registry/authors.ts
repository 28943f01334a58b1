// Authors as the public pages show them, and an author's own list of skills with every version's
// scan verdict (the dashboard, where versions are retired).
import "server-only";
import { db } from "../db";
import { DEFAULT_QUERY } from "./browse-query";
import { searchSkills, type SearchResult } from "./search";
import { compareSemver } from "./semver";

export type AuthorPage = {
  handle: string;
  name: string;
  joinedAt: string;
  result: SearchResult;
};

/** An author's public page: their skills' latest live versions, whatever the scan said. */
export async function loadAuthorPage(handle: string, page = 1): Promise<AuthorPage | null> {
  const user = await db.user.findUnique({
    where: { handle },
    select: { id: true, handle: true, name: true, createdAt: true },
  });
  if (!user) return null;
  const result = await searchSkills({ ...DEFAULT_QUERY, status: "all", sort: "newest", page }, { ownerId: user.id });
  return { handle: user.handle, name: user.name, joinedAt: user.createdAt.toISOString(), result };
}

export type AuthoredVersion = {
  version: string;
  status: "scanning" | "passed" | "flagged" | "failed";
  publishedAt: string;
  retiredAt: string | null;
  fails: number;
  flags: number;
};

export type AuthoredSkill = {
  slug: string;
  name: string;
  installs: number;
  trust: "first_party" | "community";
  versions: AuthoredVersion[];
};

/** Every skill the person owns, each with all its versions newest first. */
export async function listAuthored(ownerId: string): Promise<AuthoredSkill[]> {
  const skills = await db.skill.findMany({
    where: { ownerId },
    orderBy: { createdAt: "desc" },
    select: {
      slug: true,
      installsCount: true,
      trust: true,
      versions: {
        select: {
          version: true,
          semverMajor: true,
          semverMinor: true,
          semverPatch: true,
          prerelease: true,
          name: true,
          status: true,
          publishedAt: true,
          retiredAt: true,
          listing: { select: { findings: { select: { severity: true } } } },
        },
      },
    },
  });
  return skills.map((s) => {
    const versions = [...s.versions].sort((a, b) => compareSemver(b, a));
    return {
      slug: s.slug,
      name: versions[0]?.name ?? s.slug,
      installs: s.installsCount,
      trust: s.trust,
      versions: versions.map((v) => {
        const findings = v.listing?.findings ?? [];
        return {
          version: v.version,
          status: v.status,
          publishedAt: v.publishedAt.toISOString(),
          retiredAt: v.retiredAt?.toISOString() ?? null,
          fails: findings.filter((f) => f.severity === "fail").length,
          flags: findings.filter((f) => f.severity === "flag").length,
        };
      }),
    };
  });
}
