// Search by name: a query that could be a slug or an author's handle (`text-tools`, `@openvibe`)
// finds that skill, or that author's skills, first; a prefix of either (`text-to`) matches too,
// below every word match (a skill the words also find keeps its word tier).
// Words rarely reach these (`websearch_to_tsquery` splits `text-tools` into stemmed parts), so the
// slug and handle are matched as text, through btree text_pattern_ops indexes on both.
import { Prisma } from "../db";

/** Exact slug, exact handle (above the word tiers 3, 2, 1), then a slug or handle prefix alone. */
export const NAME_TIERS = { slug: 5, handle: 4, prefix: 0 } as const;
const TERM = /^[a-z0-9][a-z0-9-]{0,63}$/;
const MIN_PREFIX = 2;

export type NameTerm = { exact: string; prefix: string | null };

/** The query as a slug or handle (lowercase, one leading `@` dropped), or null when it is not one. */
export function nameTerm(q: string): NameTerm | null {
  const text = q.trim().toLowerCase().replace(/^@/, "");
  if (!TERM.test(text)) return null;
  // Only [a-z0-9-]: nothing in it is a LIKE wildcard.
  return { exact: text, prefix: text.length >= MIN_PREFIX ? `${text}%` : null };
}

// Each is one InitPlan: the handles' ids, read through the handle's indexes.
const exactOwners = (t: NameTerm) => Prisma.sql`ARRAY(SELECT id FROM "User" WHERE handle = ${t.exact})`;
const prefixOwners = (t: NameTerm) =>
  Prisma.sql`ARRAY(SELECT id FROM "User" WHERE handle LIKE ${t.prefix}::text ORDER BY handle LIMIT 200)`;

/** The skill `l` is found by name: its slug or its author's handle is the term or starts with it. */
export function nameMatch(t: NameTerm): Prisma.Sql {
  return Prisma.sql`(l.slug = ${t.exact} OR l.slug LIKE ${t.prefix}::text OR l."ownerId" = ANY(${exactOwners(t)}) OR l."ownerId" = ANY(${prefixOwners(t)}))`;
}

/** The tier of a skill that nameMatch found. */
export function nameTier(t: NameTerm): Prisma.Sql {
  return Prisma.sql`CASE WHEN l.slug = ${t.exact} THEN ${NAME_TIERS.slug} WHEN l."ownerId" = ANY(${exactOwners(t)}) THEN ${NAME_TIERS.handle} ELSE ${NAME_TIERS.prefix} END`;
}

/** The skill `l` has exactly the term as its slug or its author's handle. */
export function exactMatch(t: NameTerm): Prisma.Sql {
  return Prisma.sql`(l.slug = ${t.exact} OR l."ownerId" = ANY(${exactOwners(t)}))`;
}

/**
 * One disjoint condition per name tier, for the walks that page many matches tier by tier:
 * `words` is the word match, whose tiers leave out the exact ones and come before the prefix.
 */
export function nameTierMatches(
  t: NameTerm,
  words: Prisma.Sql,
): { exact: [number, Prisma.Sql][]; prefix: [number, Prisma.Sql] } {
  const slug = Prisma.sql`l.slug = ${t.exact}`;
  return {
    exact: [
      [NAME_TIERS.slug, slug],
      [NAME_TIERS.handle, Prisma.sql`l."ownerId" = ANY(${exactOwners(t)}) AND NOT (${slug})`],
    ],
    prefix: [NAME_TIERS.prefix, Prisma.sql`${nameMatch(t)} AND NOT ${exactMatch(t)} AND NOT (${words})`],
  };
}
