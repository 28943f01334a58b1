// Search by name: a query that could be a slug or an author's handle (`text-tools`, `@openvibe`)
// finds that skill, or that author's skills, first; a prefix of either (`text-to`) matches too,
// below every word match (a skill the words also find keeps its word tier).
// Words rarely reach these (`websearch_to_tsquery` splits `text-tools` into stemmed parts), so the
// slug and handle are matched as text, through btree text_pattern_ops indexes on both. The handles
// are looked up first, so the search's plan sees the authors as values (none: no author condition).
import "server-only";
import { queryRows, Prisma } from "../db";

/** Exact slug, exact handle (above the word tiers 3, 2, 1), then a slug or handle prefix alone. */
export const NAME_TIERS = { slug: 5, handle: 4, prefix: 0 } as const;
const TERM = /^[a-z0-9][a-z0-9-]{0,63}$/;
const MIN_PREFIX = 2;
const MAX_OWNERS = 200;

export type NameTerm = {
  exact: string;
  /** `exact%`, or null when the term is too short to be a prefix. */
  prefix: string | null;
  /** The author whose handle is the term. */
  exactOwner: string | null;
  /** Authors whose handle starts with the term (the exact one included). */
  owners: string[];
};

/** The query as a slug or handle (lowercase, one leading `@` dropped) with its authors, or null. */
export async function findNameTerm(q: string): Promise<NameTerm | null> {
  const exact = q.trim().toLowerCase().replace(/^@/, "");
  if (!TERM.test(exact)) return null;
  // Only [a-z0-9-]: nothing in it is a LIKE wildcard.
  const prefix = exact.length >= MIN_PREFIX ? `${exact}%` : null;
  const users = await queryRows<{ id: string; handle: string }>(Prisma.sql`
    SELECT id, handle FROM "User" WHERE ${prefix ? Prisma.sql`handle LIKE ${prefix}::text` : Prisma.sql`handle = ${exact}`}
    ORDER BY handle ASC LIMIT ${MAX_OWNERS}::int`);
  return {
    exact,
    prefix,
    exactOwner: users.find((u) => u.handle === exact)?.id ?? null,
    owners: users.map((u) => u.id),
  };
}

/** The skill `l` is found by name: its slug or its author's handle is the term or starts with it. */
export function nameMatch(t: NameTerm): Prisma.Sql {
  const slug = t.prefix ? Prisma.sql`l.slug LIKE ${t.prefix}::text` : Prisma.sql`l.slug = ${t.exact}`;
  return t.owners.length ? Prisma.sql`(${slug} OR l."ownerId" = ANY(${t.owners}::text[]))` : slug;
}

/** The skill `l` has exactly the term as its slug or its author's handle. */
export function exactMatch(t: NameTerm): Prisma.Sql {
  return t.exactOwner
    ? Prisma.sql`(l.slug = ${t.exact} OR l."ownerId" = ${t.exactOwner})`
    : Prisma.sql`l.slug = ${t.exact}`;
}

/** The tier of a skill that nameMatch found. */
export function nameTier(t: NameTerm): Prisma.Sql {
  const handle = t.exactOwner
    ? Prisma.sql` WHEN l."ownerId" = ${t.exactOwner} THEN ${NAME_TIERS.handle}`
    : Prisma.empty;
  return Prisma.sql`CASE WHEN l.slug = ${t.exact} THEN ${NAME_TIERS.slug}${handle} ELSE ${NAME_TIERS.prefix} END`;
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
      ...(t.exactOwner
        ? [[NAME_TIERS.handle, Prisma.sql`l."ownerId" = ${t.exactOwner} AND NOT (${slug})`] as [number, Prisma.Sql]]
        : []),
    ],
    prefix: [NAME_TIERS.prefix, Prisma.sql`${nameMatch(t)} AND NOT ${exactMatch(t)} AND NOT (${words})`],
  };
}
