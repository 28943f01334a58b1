// The read side of a Balance: the ledger page with its filters (kind, date range, skill, agent)
// and what runs cost per day, per skill and per agent (charges less their refunds, UTC days).
import "server-only";
import { db, Prisma, type LedgerKind } from "../db";
import { AppError } from "../errors";
import { formatMicros } from "./rates";

export const LEDGER_KINDS = ["topup", "charge", "refund"] as const satisfies readonly LedgerKind[];
export const LEDGER_PAGE_DEFAULT = 25;
export const LEDGER_PAGE_MAX = 100;
export const USAGE_DAYS_DEFAULT = 14;
export const USAGE_DAYS_MAX = 92;
const DAY_MS = 86_400_000;
const DAY = /^(\d{4})-(\d{2})-(\d{2})$/;
const SKILL_SLUG = /^[a-z0-9][a-z0-9-]{0,62}[a-z0-9]?$/;
const ID = /^[A-Za-z0-9_-]{1,64}$/;

export type LedgerFilter = {
  kind?: LedgerKind;
  /** First UTC day included. */
  from?: Date;
  /** Start of the UTC day after the last one included. */
  until?: Date;
  skill?: string;
  agentId?: string;
  cursor?: string;
  limit?: number;
};

/** `YYYY-MM-DD` → midnight UTC of that day, or `billing.filter_invalid`. */
export function parseDay(text: string, field: string): Date {
  const m = DAY.exec(text);
  const date = m ? new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]))) : null;
  if (!date || Number.isNaN(date.getTime()) || date.toISOString().slice(0, 10) !== text) {
    throw new AppError("billing.filter_invalid", `"${field}" is a day written YYYY-MM-DD.`, {
      details: [{ path: `/${field}`, message: "must be a date YYYY-MM-DD" }],
    });
  }
  return date;
}

export const dayText = (d: Date) => d.toISOString().slice(0, 10);
export const startOfUtcDay = (d: Date) => new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate()));

/** The ledger filter from query parameters (the API's and the page's), each checked. */
export function ledgerFilterFromQuery(q: Record<string, string | undefined>): LedgerFilter {
  const filter: LedgerFilter = {};
  const invalid = (field: string, message: string) =>
    new AppError("billing.filter_invalid", `The "${field}" filter ${message}.`, {
      details: [{ path: `/${field}`, message }],
    });
  if (q.kind) {
    if (!(LEDGER_KINDS as readonly string[]).includes(q.kind)) throw invalid("kind", "is topup, charge or refund");
    filter.kind = q.kind as LedgerKind;
  }
  if (q.from) filter.from = parseDay(q.from, "from");
  if (q.to) filter.until = new Date(parseDay(q.to, "to").getTime() + DAY_MS);
  if (filter.from && filter.until && filter.from >= filter.until) throw invalid("to", "is on or after the from day");
  if (q.skill) {
    if (!SKILL_SLUG.test(q.skill)) throw invalid("skill", "is a skill's slug");
    filter.skill = q.skill;
  }
  if (q.agent) {
    if (!ID.test(q.agent)) throw invalid("agent", "is an agent id");
    filter.agentId = q.agent;
  }
  if (q.cursor) {
    if (!ID.test(q.cursor)) throw new AppError("billing.cursor_invalid", "That page cursor is not valid.");
    filter.cursor = q.cursor;
  }
  if (q.limit) {
    const n = Number(q.limit);
    if (!Number.isInteger(n) || n < 1 || n > LEDGER_PAGE_MAX) throw invalid("limit", `is 1-${LEDGER_PAGE_MAX}`);
    filter.limit = n;
  }
  return filter;
}

export type LedgerRow = {
  id: string;
  kind: LedgerKind;
  amountMicros: bigint;
  memo: string;
  skillSlug: string | null;
  agent: { id: string; name: string } | null;
  jobId: string | null;
  createdAt: Date;
};

/** One page of the person's ledger, newest first; `nextCursor` continues it. */
export async function listLedger(
  userId: string,
  filter: LedgerFilter = {},
): Promise<{ entries: LedgerRow[]; nextCursor: string | null }> {
  const take = Math.min(filter.limit ?? LEDGER_PAGE_DEFAULT, LEDGER_PAGE_MAX);
  const where: Prisma.LedgerEntryWhereInput = {
    userId,
    ...(filter.kind ? { kind: filter.kind } : {}),
    ...(filter.skill ? { skillSlug: filter.skill } : {}),
    ...(filter.agentId ? { agentId: filter.agentId } : {}),
    ...(filter.from || filter.until
      ? { createdAt: { ...(filter.from ? { gte: filter.from } : {}), ...(filter.until ? { lt: filter.until } : {}) } }
      : {}),
  };
  if (filter.cursor) {
    const mine = await db.ledgerEntry.findFirst({ where: { id: filter.cursor, userId }, select: { id: true } });
    if (!mine) throw new AppError("billing.cursor_invalid", "That page cursor is not valid.");
  }
  const rows = await db.ledgerEntry.findMany({
    where,
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    take: take + 1,
    ...(filter.cursor ? { cursor: { id: filter.cursor }, skip: 1 } : {}),
    select: {
      id: true,
      kind: true,
      amountMicros: true,
      memo: true,
      skillSlug: true,
      jobId: true,
      createdAt: true,
      agent: { select: { id: true, name: true } },
    },
  });
  const page = rows.slice(0, take);
  return {
    entries: page.map((r) => ({
      id: r.id,
      kind: r.kind,
      amountMicros: r.amountMicros,
      memo: r.memo,
      skillSlug: r.skillSlug,
      agent: r.agent,
      jobId: r.jobId,
      createdAt: r.createdAt,
    })),
    nextCursor: rows.length > take ? (page[page.length - 1]?.id ?? null) : null,
  };
}

/** The days a usage chart covers: `days` UTC days ending with `until`'s day (today by default). */
export function usageRange(q: { from?: string; to?: string }, now = new Date()): { from: Date; until: Date } {
  const until = q.to
    ? new Date(parseDay(q.to, "to").getTime() + DAY_MS)
    : new Date(startOfUtcDay(now).getTime() + DAY_MS);
  const from = q.from ? parseDay(q.from, "from") : new Date(until.getTime() - USAGE_DAYS_DEFAULT * DAY_MS);
  if (from >= until) {
    throw new AppError("billing.filter_invalid", 'The "to" day is on or after the "from" day.', {
      details: [{ path: "/to", message: "must be on or after from" }],
    });
  }
  if (until.getTime() - from.getTime() > USAGE_DAYS_MAX * DAY_MS) {
    throw new AppError("billing.filter_invalid", `Usage covers at most ${USAGE_DAYS_MAX} days at a time.`, {
      details: [{ path: "/from", message: `at most ${USAGE_DAYS_MAX} days before to` }],
    });
  }
  return { from, until };
}

export type UsageCell = { day: string; key: string; label: string; spentMicros: bigint };

export type Usage = {
  /** Every UTC day of the range, oldest first (days without runs included). */
  days: string[];
  /** One series per skill (or agent), biggest total first. */
  series: { key: string; label: string; totalMicros: bigint }[];
  cells: UsageCell[];
  totalMicros: bigint;
};

type UsageSqlRow = { day: string; key: string | null; label: string | null; spent: bigint };

/** What runs cost per UTC day, grouped by skill or by agent: charges less refunds. */
export async function usageByDay(
  userId: string,
  range: { from: Date; until: Date },
  by: "skill" | "agent",
): Promise<Usage> {
  const rows =
    by === "skill"
      ? await db.$queryRaw<UsageSqlRow[]>`
          SELECT to_char(date_trunc('day', l."createdAt"), 'YYYY-MM-DD') AS day,
                 l."skillSlug" AS key, l."skillSlug" AS label,
                 (-SUM(l."amountMicros"))::bigint AS spent
            FROM "LedgerEntry" l
           WHERE l."userId" = ${userId} AND l.kind IN ('charge', 'refund')
             AND l."createdAt" >= ${range.from} AND l."createdAt" < ${range.until}
           GROUP BY 1, 2
           ORDER BY 1, 2`
      : await db.$queryRaw<UsageSqlRow[]>`
          SELECT to_char(date_trunc('day', l."createdAt"), 'YYYY-MM-DD') AS day,
                 l."agentId" AS key, a.name AS label,
                 (-SUM(l."amountMicros"))::bigint AS spent
            FROM "LedgerEntry" l
            LEFT JOIN "Agent" a ON a.id = l."agentId"
           WHERE l."userId" = ${userId} AND l.kind IN ('charge', 'refund')
             AND l."createdAt" >= ${range.from} AND l."createdAt" < ${range.until}
           GROUP BY 1, 2, 3
           ORDER BY 1, 2`;

  const unnamed = by === "skill" ? "(no skill)" : "(no agent: you or a removed agent)";
  const cells: UsageCell[] = rows
    .filter((r) => r.spent !== 0n)
    .map((r) => ({ day: r.day, key: r.key ?? "", label: r.label ?? unnamed, spentMicros: BigInt(r.spent) }));
  const totals = new Map<string, { key: string; label: string; totalMicros: bigint }>();
  for (const c of cells) {
    const t = totals.get(c.key) ?? { key: c.key, label: c.label, totalMicros: 0n };
    t.totalMicros += c.spentMicros;
    totals.set(c.key, t);
  }
  const series = [...totals.values()].sort((a, b) =>
    a.totalMicros === b.totalMicros ? a.label.localeCompare(b.label) : a.totalMicros > b.totalMicros ? -1 : 1,
  );
  const days: string[] = [];
  for (let t = range.from.getTime(); t < range.until.getTime(); t += DAY_MS) days.push(dayText(new Date(t)));
  return { days, series, cells, totalMicros: cells.reduce((s, c) => s + c.spentMicros, 0n) };
}

/** The skills and agents that appear in the person's ledger, for the filter menus. */
export async function ledgerFacets(userId: string) {
  const [skills, agents] = await Promise.all([
    db.ledgerEntry.findMany({
      where: { userId, skillSlug: { not: null } },
      distinct: ["skillSlug"],
      select: { skillSlug: true },
      orderBy: { skillSlug: "asc" },
      take: 200,
    }),
    db.agent.findMany({ where: { userId }, select: { id: true, name: true }, orderBy: { name: "asc" }, take: 200 }),
  ]);
  return { skills: skills.map((s) => s.skillSlug as string), agents };
}

// The API's JSON shapes: money as strings of micro-units plus the same amount written for people.

export const ledgerRowJson = (r: LedgerRow) => ({
  id: r.id,
  kind: r.kind,
  amount_micros: r.amountMicros.toString(),
  amount: formatMicros(r.amountMicros),
  memo: r.memo,
  skill: r.skillSlug,
  agent: r.agent,
  job_id: r.jobId,
  created_at: r.createdAt.toISOString(),
});

export const usageJson = (u: Usage) => ({
  days: u.days,
  total_micros: u.totalMicros.toString(),
  series: u.series.map((s) => ({ key: s.key, label: s.label, total_micros: s.totalMicros.toString() })),
  cells: u.cells.map((c) => ({ day: c.day, key: c.key, spent_micros: c.spentMicros.toString() })),
});
