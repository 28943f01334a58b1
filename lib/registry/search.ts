// Browse and search: each skill once, as its latest live version, read from "SkillLatest" (one row
// per skill with everything its card shows, kept by triggers: migrations 20261202140000_search_latest
// and 20261206030000_search_card_extras), so a page is one statement. Words are matched with
// websearch_to_tsquery over its GIN-indexed vectors and ranked by the field they match in — the
// name, then the summary, then the instructions (the A > B > C weights) — then by installs and
// publish time. Only matching skills are ranked: few matches are read through the GIN index and
// sorted, many are paged by an index walk that stops at the page. Keyset cursors (`after`) make
// deep pages cost what the first one does.
import "server-only";
import { db, Prisma, queryRows } from "../db";
import { encodeCursor, type BrowseCursor } from "./browse-cursor";
import { PAGE_SIZE, type BrowseQuery } from "./browse-query";
import type { NetPolicy } from "../contracts/types";
import { exactMatch, findNameTerm, nameMatch, nameTier, nameTierMatches, type NameTerm } from "./search-names";

/** A tool on the card; `fail`/`flag` count the scan's findings that name it. */
export type CardTool = { name: string; net: NetPolicy; fail?: number; flag?: number };

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
  /** What the instructions ask the agent to do, in plain words (instruction audit). */
  asks: string[];
  /** Bundled scripts the instructions would run on the person's machine, outside the sandbox. */
  outsideScripts: string[];
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
  /** The keyset position after the last skill shown; null on the last page. */
  next: BrowseCursor | null;
};

/**
 * Counting reads one row per skill counted, so it stops here; pages go on past it by keyset
 * ("Next"), and the page says "more than". Searches also rank up to this many matches from GIN.
 */
export const COUNT_CAP = 200;

type Row = {
  slug: string;
  version: string;
  versionId: string;
  ownerId: string;
  name: string;
  summary: string;
  trust: SkillCardData["trust"];
  installsCount: number;
  status: SkillCardData["status"];
  runs: SkillCardData["runs"];
  tools: unknown;
  publishedAt: Date;
  tier: number;
  authorHandle: string;
  authorName: string;
  asks: string[] | null;
  outsideScripts: string[] | null;
  toolFindings: Record<string, { fail: number; flag: number }> | null;
};

const STATUSES: Record<BrowseQuery["status"], SkillCardData["status"][]> = {
  installable: ["passed", "flagged"],
  passed: ["passed"],
  flagged: ["flagged"],
  failed: ["failed"],
  scanning: ["scanning"],
  all: ["scanning", "passed", "flagged", "failed"],
};

export type SearchScope = {
  /** Only this author's skills (author pages). */
  ownerId?: string;
  pageSize?: number;
  /** Counting stops here (COUNT_CAP by default). */
  countCap?: number;
};

/**
 * The SQL of one search, exported so the browse bench can EXPLAIN exactly what the pages run.
 * Without words: a page (an index walk in the sort's order) and a capped count, side by side.
 * With words, one statement: it reads up to COUNT_CAP + 1 matching skills through the GIN index
 * and, when that is all of them, ranks and pages them itself; only when more match does it page
 * them by walking the sort index instead (common words: the page is found within a few hundred
 * rows, per relevance tier).
 */
export type SearchSql =
  | { kind: "browse"; page: Prisma.Sql; count: Prisma.Sql; pageSize: number; cap: number }
  | { kind: "words"; words: Prisma.Sql; pageSize: number; cap: number };

export function searchSql(query: BrowseQuery, scope: SearchScope = {}, term: NameTerm | null = null): SearchSql {
  const pageSize = scope.pageSize ?? PAGE_SIZE;
  const cap = scope.countCap ?? COUNT_CAP;
  const tsquery = query.q ? Prisma.sql`websearch_to_tsquery('english', ${query.q})` : null;
  const filters = filtersOf(query, scope);
  const after = query.after;
  // With a cursor the page starts after it; without one, at its page number's offset.
  const offset = after ? 0 : (query.page - 1) * pageSize;
  const take = pageSize + 1; // one more than shown: whether there is a next page
  const newest = query.sort === "newest";
  const order = newest ? NEWEST : INSTALLS;
  const outer = newest ? Prisma.sql`tier DESC, "publishedAt" DESC, slug DESC` : Prisma.sql`tier DESC, "installsCount" DESC, "publishedAt" DESC, slug DESC`;
  const ordered = (rows: Prisma.Sql) => Prisma.sql`SELECT r.* FROM (${rows}) r ORDER BY ${outer}`;

  if (!tsquery) {
    const keyset = after ? [keysetAfter(after, newest)] : [];
    const page = Prisma.sql`SELECT * FROM ${branch(0, [...filters, ...keyset], order, offset + take)} b ORDER BY ${outer} LIMIT ${take} OFFSET ${offset}`;
    const count = Prisma.sql`
      SELECT count(*) AS total FROM (SELECT 1 FROM "SkillLatest" l WHERE ${Prisma.join(filters, " AND ")} LIMIT ${cap + 1}) matched`;
    return { kind: "browse", page, count, pageSize, cap };
  }

  const relevance = query.sort === "relevance";
  // A query that could be a slug or handle also matches by name (`term`, from findNameTerm:
  // lib/registry/search-names.ts); the word tiers leave out what the exact-name tiers above have.
  const notExact = term ? Prisma.sql` AND NOT ${exactMatch(term)}` : Prisma.empty;
  const cursorKey = after
    ? newest
      ? Prisma.sql`WHERE (tier, "publishedAt", slug) < (${after.tier}::int, ${timestampOf(after)}, ${after.slug}::text)`
      : Prisma.sql`WHERE (tier, "installsCount", "publishedAt", slug) < (${after.tier}::int, ${after.installs}::int, ${timestampOf(after)}, ${after.slug}::text)`
    : Prisma.empty;
  const few = ordered(Prisma.sql`
      SELECT ${CARD}, k.tier
      FROM (SELECT * FROM m ${cursorKey} ORDER BY ${outer} LIMIT ${take} OFFSET ${offset}) k
      JOIN "SkillLatest" l ON l."skillId" = k."skillId"`);

  let branches: Prisma.Sql[];
  if (relevance) {
    // A name match outranks a summary match, which outranks an instructions match: one index walk
    // per field, each stopping at the page, so ranking never visits every skill the words match.
    const all = Prisma.sql`l."searchVector" @@ ${tsquery}`;
    const name = Prisma.sql`l."nameVector" @@ ${tsquery}`;
    const head = Prisma.sql`l."headVector" @@ ${tsquery}`;
    const byName = term ? nameTierMatches(term, all) : null;
    // The name and the summary come first in the whole vector, so a match of one word in them is a
    // match in the whole: leaving that test out keeps the planner's estimate of a name match (one
    // word's frequency, which it knows) honest, and it walks the sort index instead of intersecting
    // two GIN scans. For several words its estimate multiplies their frequencies: the test stays,
    // as it does for an exclusion ("-word").
    const inAll = /^[\p{L}\p{N}]+$/u.test(query.q) ? Prisma.empty : Prisma.sql` AND ${all}`;
    const tiers: [number, Prisma.Sql][] = [
      ...(byName?.exact ?? []),
      [3, Prisma.sql`${name}${inAll}${notExact}`],
      [2, Prisma.sql`${head} AND NOT (${name})${inAll}${notExact}`],
      [1, Prisma.sql`${all} AND NOT (${head})${notExact}`],
      ...(byName ? [byName.prefix] : []),
    ];
    branches = tiers
      .filter(([tier]) => !after || tier <= after.tier)
      .map(([tier, match]) => {
        const keyset = after && tier === after.tier ? [keysetAfter(after, false)] : [];
        return branch(tier, [...filters, match, ...keyset], order, offset + take);
      });
  } else {
    const keyset = after ? [keysetAfter(after, newest)] : [];
    const words = Prisma.sql`l."searchVector" @@ ${tsquery}`;
    const match = term ? Prisma.sql`(${words} OR ${nameMatch(term)})` : words;
    branches = [branch(0, [...filters, match, ...keyset], order, offset + take)];
  }
  const many = branches.length
    ? Prisma.sql`UNION ALL SELECT * FROM (${ordered(
        Prisma.sql`SELECT * FROM (${Prisma.join(branches, " UNION ALL ")}) b ORDER BY ${outer} LIMIT ${take} OFFSET ${offset}`,
      )}) many WHERE (SELECT count(*) FROM m) > ${cap}`
    : Prisma.empty;

  // One statement: the count decides which of the two pages runs (the other is never executed).
  const words = Prisma.sql`
    WITH m AS MATERIALIZED (${withNameMatches(matchesOf(query, scope, filters, tsquery, cap + 1), term, relevance, filters, cap + 1)})
    SELECT (SELECT count(*) FROM m) AS total, p.*
    FROM (SELECT 1) one
    LEFT JOIN LATERAL (
      SELECT * FROM (${few}) few WHERE (SELECT count(*) FROM m) <= ${cap}
      ${many}
    ) p ON true
    ORDER BY ${outer}`;
  return { kind: "words", words, pageSize, cap };
}

export async function searchSkills(query: BrowseQuery, scope: SearchScope = {}): Promise<SearchResult> {
  const sql = searchSql(query, scope, query.q ? await findNameTerm(query.q) : null);
  let rows: Row[];
  let total: number;
  if (sql.kind === "browse") {
    // The page and a capped count, side by side on two connections: count(*) OVER () would make
    // the page visit every match.
    const [page, counted] = await Promise.all([queryRows<Row>(sql.page), queryRows<{ total: bigint }>(sql.count)]);
    rows = page;
    total = Number(counted[0]?.total ?? 0);
  } else {
    // Through Prisma's pool: at 100 000 skills the raw pool made the heavier searches slower.
    const found = await db.$queryRaw<(Row & { total: bigint })[]>(sql.words);
    total = Number(found[0]?.total ?? 0);
    rows = found.filter((r) => r.slug !== null);
  }
  const shown = rows.slice(0, sql.pageSize);
  const last = shown.at(-1);
  const counted = Math.min(total, sql.cap);
  return {
    query,
    skills: shown.map(toCard),
    total: counted,
    totalCapped: total > sql.cap,
    pages: Math.max(1, Math.ceil(counted / sql.pageSize)),
    next:
      rows.length > sql.pageSize && last
        ? { tier: Number(last.tier), installs: last.installsCount, publishedAt: last.publishedAt.getTime(), slug: last.slug }
        : null,
  };
}

/** The URL value of a result's next-page cursor. */
export function nextCursorParam(result: SearchResult): string | null {
  return result.next ? encodeCursor(result.next) : null;
}

// Up to `limit` matches with their sort keys. One word has a frequency the planner knows, so it
// picks the plan (a common word: a scan that stops at `limit`; a rare one: the GIN index). For
// several words, a phrase or an exclusion its estimate is a guess, so skill_latest_matches forces
// the GIN index, whose cost is that of the matches.
function matchesOf(query: BrowseQuery, scope: SearchScope, filters: Prisma.Sql[], tsquery: Prisma.Sql, limit: number): Prisma.Sql {
  const relevance = query.sort === "relevance";
  if (/^[\p{L}\p{N}]+$/u.test(query.q)) {
    const tier = relevance
      ? Prisma.sql`CASE WHEN l."nameVector" @@ ${tsquery} THEN 3 WHEN l."headVector" @@ ${tsquery} THEN 2 ELSE 1 END`
      : Prisma.sql`0`;
    return Prisma.sql`
      SELECT l."skillId", ${tier}::int AS tier, l."installsCount", l."publishedAt", l.slug
      FROM "SkillLatest" l
      WHERE ${Prisma.join([...filters, Prisma.sql`l."searchVector" @@ ${tsquery}`], " AND ")}
      LIMIT ${limit}`;
  }
  return Prisma.sql`
    SELECT * FROM skill_latest_matches(${tsquery}, ${relevance}, ${STATUSES[query.status]}::text[], ${query.runs}::"SkillRuns",
                                       ${query.trust}::"SkillTrust", ${query.net}::text, ${scope.ownerId ?? null}::text, ${limit}::int)`;
}

// The word matches and the name matches (up to `limit` each), one row per skill at its best tier.
function withNameMatches(words: Prisma.Sql, term: NameTerm | null, relevance: boolean, filters: Prisma.Sql[], limit: number) {
  if (!term) return words;
  return Prisma.sql`
    SELECT DISTINCT ON ("skillId") * FROM (
      (${words})
      UNION ALL
      (SELECT l."skillId", ${relevance ? nameTier(term) : Prisma.sql`0`}::int AS tier, l."installsCount", l."publishedAt", l.slug
       FROM "SkillLatest" l WHERE ${Prisma.join([...filters, nameMatch(term)], " AND ")} LIMIT ${limit})
    ) both_matches
    ORDER BY "skillId", tier DESC`;
}

// What a card shows, all of it on the skill's "SkillLatest" row.
const CARD = Prisma.raw(`l.slug, l.version, l."versionId", l.name, l.summary, l."ownerId", l.trust, l."installsCount", l.status,
           l.runs, l.tools, l."publishedAt", l."authorHandle", l."authorName", l.asks, l."outsideScripts", l."toolFindings"`);

// The two keyset orders; each has an index per selective filter (status, trust, net, owner).
const INSTALLS = Prisma.sql`l."installsCount" DESC, l."publishedAt" DESC, l.slug DESC`;
const NEWEST = Prisma.sql`l."publishedAt" DESC, l.slug DESC`;

function filtersOf(query: BrowseQuery, scope: SearchScope): Prisma.Sql[] {
  const where: Prisma.Sql[] = [];
  const statuses = STATUSES[query.status];
  // One status is an equality, so the (status, sort key) indexes serve it; all four is no filter.
  if (statuses.length === 1) where.push(Prisma.sql`l.status = ${statuses[0]}::"VersionStatus"`);
  else if (statuses.length < 4) where.push(Prisma.sql`l.status = ANY(${statuses}::"VersionStatus"[])`);
  if (query.runs) where.push(Prisma.sql`l.runs = ${query.runs}::"SkillRuns"`);
  if (query.trust) where.push(Prisma.sql`l.trust = ${query.trust}::"SkillTrust"`);
  if (query.net) where.push(Prisma.sql`l."netReach" = ${query.net}`);
  if (scope.ownerId) where.push(Prisma.sql`l."ownerId" = ${scope.ownerId}`);
  if (where.length === 0) where.push(Prisma.sql`true`);
  return where;
}

// A row comparison in the index's own order, so the walk starts at the cursor instead of before it.
function keysetAfter(c: BrowseCursor, newest: boolean): Prisma.Sql {
  const at = timestampOf(c);
  return newest
    ? Prisma.sql`(l."publishedAt", l.slug) < (${at}, ${c.slug}::text)`
    : Prisma.sql`(l."installsCount", l."publishedAt", l.slug) < (${c.installs}::int, ${at}, ${c.slug}::text)`;
}

// The column is timestamp(3) holding UTC; a zone in the text is ignored by the cast.
function timestampOf(c: BrowseCursor): Prisma.Sql {
  return Prisma.sql`${new Date(c.publishedAt).toISOString()}::timestamp(3)`;
}

function branch(tier: number, where: Prisma.Sql[], order: Prisma.Sql, limit: number): Prisma.Sql {
  return Prisma.sql`(SELECT ${CARD}, ${tier}::int AS tier
    FROM "SkillLatest" l
    WHERE ${Prisma.join(where, " AND ")}
    ORDER BY ${order}
    LIMIT ${limit})`;
}

function toCard(r: Row): SkillCardData {
  return {
    slug: r.slug,
    version: r.version,
    name: r.name,
    summary: r.summary,
    author: { handle: r.authorHandle, name: r.authorName },
    trust: r.trust,
    installs: r.installsCount,
    status: r.status,
    runs: r.runs,
    tools: (Array.isArray(r.tools) ? (r.tools as CardTool[]) : []).map((t) => ({
      ...t,
      fail: r.toolFindings?.[t.name]?.fail ?? 0,
      flag: r.toolFindings?.[t.name]?.flag ?? 0,
    })),
    asks: r.asks ?? [],
    outsideScripts: r.outsideScripts ?? [],
    publishedAt: r.publishedAt.toISOString(),
  };
}
