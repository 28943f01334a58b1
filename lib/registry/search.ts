// Browse and search: each skill once, as its latest non-retired version (highest semver), matched
// with PostgreSQL full text (websearch_to_tsquery over the generated, GIN-indexed `searchVector`,
// ranked by ts_rank_cd), filtered, sorted and paged in one SQL statement.
import "server-only";
import { db, Prisma } from "../db";
import { PAGE_SIZE, type BrowseQuery } from "./browse-query";
import type { NetPolicy } from "../contracts/types";

/** A tool on the card; `fail`/`flag` count the scan's findings that name it. */
export type CardTool = { name: string; net: NetPolicy; fail?: number; flag?: number };

// Per tool of `v` (the jsonb element `t`): how many findings of each severity name it (by the
// (listingId, tool) index).
const TOOL_FINDINGS = Prisma.sql`(SELECT jsonb_build_object('fail', count(*) FILTER (WHERE f.severity = 'fail'),
                                                            'flag', count(*) FILTER (WHERE f.severity = 'flag'))
                                   FROM "ScanFinding" f JOIN "Listing" l ON l.id = f."listingId"
                                   WHERE l."versionId" = v.id AND f.tool = t ->> 'name')`;

/** What a skill card shows (browse, author and dashboard pages). */
export type SkillCardData = {
  slug: string;
  version: string;
  name: string;
  summary: string;
  author: { handle: string; name: string };
  trust: "first_party" | "community";
  installs: number;
  status: "scanning" | "passed" | "flagged" | "failed";
  runs: "prompt" | "sandbox";
  tools: CardTool[];
  publishedAt: string;
};

export type SearchResult = {
  query: BrowseQuery;
  skills: SkillCardData[];
  /** Matching skills, counted up to COUNT_CAP. */
  total: number;
  /** True when more than COUNT_CAP skills match (total is then COUNT_CAP). */
  totalCapped: boolean;
  pages: number;
};

export const COUNT_CAP = 1000;

type Row = {
  slug: string;
  version: string;
  name: string;
  summary: string;
  handle: string;
  authorName: string;
  trust: SkillCardData["trust"];
  installsCount: number;
  status: SkillCardData["status"];
  runs: SkillCardData["runs"];
  tools: unknown;
  publishedAt: Date;
};

const STATUSES: Record<BrowseQuery["status"], string[]> = {
  installable: ["passed", "flagged"],
  passed: ["passed"],
  flagged: ["flagged"],
  failed: ["failed"],
  scanning: ["scanning"],
  all: ["scanning", "passed", "flagged", "failed"],
};

// `v` is the latest live version of its skill when no other live version of the same skill has a
// higher precedence: served by the (skillId, semver) index, one probe per candidate. A release
// outranks its pre-releases; two pre-releases of one x.y.z compare as text (semver's numeric
// identifiers, e.g. rc.10 vs rc.9, are the one case where this differs from compareSemver).
const IS_LATEST = Prisma.sql`NOT EXISTS (
  SELECT 1 FROM "SkillVersion" n
  WHERE n."skillId" = v."skillId" AND n."retiredAt" IS NULL AND n.id <> v.id
    AND (n."semverMajor", n."semverMinor", n."semverPatch", (n.prerelease IS NULL), coalesce(n.prerelease, ''))
      > (v."semverMajor", v."semverMinor", v."semverPatch", (v.prerelease IS NULL), coalesce(v.prerelease, ''))
)`;

export type SearchScope = {
  /** Only this author's skills (author pages). */
  ownerId?: string;
  pageSize?: number;
  /** Counting stops here (COUNT_CAP by default). */
  countCap?: number;
};

export async function searchSkills(query: BrowseQuery, scope: SearchScope = {}): Promise<SearchResult> {
  const pageSize = scope.pageSize ?? PAGE_SIZE;
  const tsquery = query.q ? Prisma.sql`websearch_to_tsquery('english', ${query.q})` : null;
  const where: Prisma.Sql[] = [Prisma.sql`v."retiredAt" IS NULL`, IS_LATEST];
  // Compared as the enum types, not as text: the planner then estimates rows from the columns'
  // statistics and picks plans that stop early under LIMIT.
  where.push(Prisma.sql`v.status = ANY(${STATUSES[query.status]}::"VersionStatus"[])`);
  if (tsquery) where.push(Prisma.sql`v."searchVector" @@ ${tsquery}`);
  if (query.runs) where.push(Prisma.sql`v.runs = ${query.runs}::"SkillRuns"`);
  if (query.trust) where.push(Prisma.sql`s.trust = ${query.trust}::"SkillTrust"`);
  // `netReach` is generated from the document (migration 20261130080000_browse_net_reach).
  if (query.net) where.push(Prisma.sql`v."netReach" = ${query.net}`);
  if (scope.ownerId) where.push(Prisma.sql`s."ownerId" = ${scope.ownerId}`);

  const rank = tsquery ? Prisma.sql`ts_rank_cd(v."searchVector", ${tsquery})` : Prisma.sql`0`;
  const order =
    query.sort === "newest"
      ? Prisma.sql`v."publishedAt" DESC, s.slug`
      : query.sort === "installs"
        ? Prisma.sql`s."installsCount" DESC, s.slug`
        : tsquery
          ? Prisma.sql`rank DESC, s."installsCount" DESC, s.slug`
          : // Relevance without words: what most people install, newest first among equals.
            Prisma.sql`s."installsCount" DESC, v."publishedAt" DESC, s.slug`;

  // The page and a capped count, side by side on two connections: the count is a separate query
  // because count(*) OVER () would make the page visit every match (measured slower).
  const pageQuery = db.$queryRaw<Row[]>`
    SELECT s.slug, v.version, v.name, v.summary, u.handle, u.name AS "authorName", s.trust,
           s."installsCount", v.status, v.runs,
           coalesce((SELECT jsonb_agg(jsonb_build_object('name', t ->> 'name', 'net', coalesce(t ->> 'net', 'deny')) || ${TOOL_FINDINGS})
                     FROM jsonb_array_elements(CASE WHEN jsonb_typeof(v.document -> 'tools') = 'array'
                                                    THEN v.document -> 'tools' ELSE '[]'::jsonb END) t), '[]'::jsonb) AS tools,
           v."publishedAt", ${rank} AS rank
    FROM "SkillVersion" v
    JOIN "Skill" s ON s.id = v."skillId"
    JOIN "User" u ON u.id = s."ownerId"
    WHERE ${Prisma.join(where, " AND ")}
    ORDER BY ${order}
    LIMIT ${pageSize} OFFSET ${(query.page - 1) * pageSize}`;

  const [rows, counted] = await Promise.all([pageQuery, countMatches(where, scope.countCap ?? COUNT_CAP)]);
  return {
    query,
    skills: rows.map(toCard),
    total: counted.count,
    totalCapped: counted.capped,
    pages: Math.max(1, Math.ceil(counted.count / pageSize)),
  };
}

/**
 * How many skills match, counted up to COUNT_CAP: past that the page says "more than", and the
 * count stays as cheap as the page itself instead of visiting every skill in the catalogue.
 */
async function countMatches(where: Prisma.Sql[], cap: number): Promise<{ count: number; capped: boolean }> {
  const [row] = await db.$queryRaw<{ total: bigint }[]>`
    SELECT count(*) AS total FROM (
      SELECT 1 FROM "SkillVersion" v JOIN "Skill" s ON s.id = v."skillId"
      WHERE ${Prisma.join(where, " AND ")}
      LIMIT ${cap + 1}
    ) matched`;
  const count = Number(row?.total ?? 0);
  return count > cap ? { count: cap, capped: true } : { count, capped: false };
}

function toCard(r: Row): SkillCardData {
  return {
    slug: r.slug,
    version: r.version,
    name: r.name,
    summary: r.summary,
    author: { handle: r.handle, name: r.authorName },
    trust: r.trust,
    installs: r.installsCount,
    status: r.status,
    runs: r.runs,
    tools: Array.isArray(r.tools) ? (r.tools as CardTool[]) : [],
    publishedAt: r.publishedAt.toISOString(),
  };
}
