// The audit of what a person's skills did: every `skill.run` step of the last N days (which tool
// of which skill version, for which agent, how it ended and how long it took), newest first, paged,
// summarised per tool, and exported as CSV.
import "server-only";
import { db, Prisma } from "../db";
import { AppError } from "../errors";
import { netPolicySchema, type EgressRecord } from "../protocol";
import { storedAttestation } from "../runs/attestation";
import { csvRow } from "./csv";
import { AUDIT_DAYS_MAX, AUDIT_DAYS_MIN } from "../openapi/schemas";

export { AUDIT_DAYS_DEFAULT, AUDIT_DAYS_MAX, AUDIT_DAYS_MIN } from "../openapi/schemas";

export const SKILL_RUN_KIND = "skill.run";
export const AUDIT_PAGE_MAX = 200;
/** An export is a file a person opens in a spreadsheet; past this many rows, narrow N instead. */
export const AUDIT_EXPORT_MAX_ROWS = 100_000;

const DAY_MS = 86_400_000;

export type AuditRow = {
  id: string;
  at: string;
  slug: string;
  version: string;
  tool: string;
  agent: string | null;
  status: string;
  exit: string | null;
  wall_ms: number | null;
  net: "deny" | "openvibe-only" | "public";
  /** The hosts its tool tried, from the Link's signed egress record: `host:port`, or `host:port (blocked)`. */
  hosts: string[];
};

export type AuditPage = { days: number; since: string; steps: AuditRow[]; next_cursor: string | null };

export function assertAuditDays(days: number): number {
  if (!Number.isInteger(days) || days < AUDIT_DAYS_MIN || days > AUDIT_DAYS_MAX) {
    throw new AppError("request.invalid", `Choose a number of days from ${AUDIT_DAYS_MIN} to ${AUDIT_DAYS_MAX}.`, {
      details: [{ path: "/days", message: `must be a whole number from ${AUDIT_DAYS_MIN} to ${AUDIT_DAYS_MAX}` }],
    });
  }
  return days;
}

type Cursor = { at: Date; id: string };

export function encodeCursor(c: Cursor): string {
  return Buffer.from(JSON.stringify([c.at.toISOString(), c.id])).toString("base64url");
}

export function decodeCursor(text: string): Cursor {
  const invalid = () =>
    new AppError("audit.cursor_invalid", "That page link is not valid: start again from the first page.");
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(text, "base64url").toString("utf8"));
  } catch {
    throw invalid();
  }
  if (!Array.isArray(parsed) || parsed.length !== 2) throw invalid();
  const [iso, id] = parsed as unknown[];
  if (typeof iso !== "string" || typeof id !== "string" || id.length === 0 || id.length > 64) throw invalid();
  const at = new Date(iso);
  if (Number.isNaN(at.getTime())) throw invalid();
  return { at, id };
}

const stepSelect = {
  id: true,
  createdAt: true,
  tool: true,
  status: true,
  exitStatus: true,
  wallMs: true,
  net: true,
  agent: { select: { name: true } },
  version: { select: { version: true, skill: { select: { slug: true } } } },
  job: { select: { attestation: true } },
} satisfies Prisma.StepSelect;

/** One word per host of an egress record; a blocked attempt is shown as blocked, never dropped. */
export function egressHosts(egress: EgressRecord): string[] {
  const seen = new Set<string>();
  for (const e of egress) seen.add(`${e.host}:${e.port}${e.verdict === "denied" ? " (blocked)" : ""}`);
  return [...seen];
}

function toRow(s: Prisma.StepGetPayload<{ select: typeof stepSelect }>): AuditRow {
  return {
    id: s.id,
    at: s.createdAt.toISOString(),
    slug: s.version.skill.slug,
    version: s.version.version,
    tool: s.tool,
    agent: s.agent?.name ?? null,
    status: s.status,
    exit: s.exitStatus,
    wall_ms: s.wallMs,
    net: netPolicySchema.parse(s.net),
    hosts: egressHosts(storedAttestation(s.job?.attestation)?.statement.egress ?? []),
  };
}

function baseWhere(userId: string, since: Date, slug?: string): Prisma.StepWhereInput {
  return {
    userId,
    kind: SKILL_RUN_KIND,
    createdAt: { gte: since },
    ...(slug ? { version: { skill: { slug } } } : {}),
  };
}

function afterCursor(c: Cursor | null): Prisma.StepWhereInput {
  if (!c) return {};
  return { OR: [{ createdAt: { lt: c.at } }, { createdAt: c.at, id: { lt: c.id } }] };
}

/** Whose audit, over how many days up to `now`; `cursor`, `limit` and `slug` page and narrow the runs. */
type AuditQuery = {
  userId: string;
  days: number;
  cursor?: string | null;
  limit?: number;
  slug?: string;
  now?: Date;
};

export async function listAudit(p: AuditQuery): Promise<AuditPage> {
  const days = assertAuditDays(p.days);
  const since = new Date((p.now ?? new Date()).getTime() - days * DAY_MS);
  const limit = Math.min(Math.max(p.limit ?? 50, 1), AUDIT_PAGE_MAX);
  const cursor = p.cursor ? decodeCursor(p.cursor) : null;
  const rows = await db.step.findMany({
    where: { AND: [baseWhere(p.userId, since, p.slug), afterCursor(cursor)] },
    select: stepSelect,
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    take: limit + 1,
  });
  const page = rows.slice(0, limit);
  const last = page.at(-1);
  return {
    days,
    since: since.toISOString(),
    steps: page.map(toRow),
    next_cursor: rows.length > limit && last ? encodeCursor({ at: last.createdAt, id: last.id }) : null,
  };
}

export type AuditSummaryRow = { slug: string; version: string; tool: string; runs: number; last_at: string };

/** Which tools of which skill version ran in the window, and how often: the audit at a glance. */
export async function auditSummary(p: { userId: string; days: number; now?: Date }): Promise<AuditSummaryRow[]> {
  const days = assertAuditDays(p.days);
  const since = new Date((p.now ?? new Date()).getTime() - days * DAY_MS);
  const groups = await db.step.groupBy({
    by: ["versionId", "tool"],
    where: baseWhere(p.userId, since),
    _count: { _all: true },
    _max: { createdAt: true },
  });
  const versions = await db.skillVersion.findMany({
    where: { id: { in: [...new Set(groups.map((g) => g.versionId))] } },
    select: { id: true, version: true, skill: { select: { slug: true } } },
  });
  const byId = new Map(versions.map((v) => [v.id, v]));
  return groups
    .flatMap((g) => {
      const v = byId.get(g.versionId);
      if (!v) return [];
      return [
        {
          slug: v.skill.slug,
          version: v.version,
          tool: g.tool,
          runs: g._count._all,
          last_at: (g._max.createdAt ?? new Date(0)).toISOString(),
        },
      ];
    })
    .sort((a, b) => b.last_at.localeCompare(a.last_at) || a.slug.localeCompare(b.slug) || a.tool.localeCompare(b.tool));
}

export type AuditHostRow = {
  slug: string;
  host: string;
  port: number;
  verdict: "allowed" | "denied";
  /** Runs whose tool tried this host, and the attempts among them. */
  runs: number;
  attempts: number;
  bytes_up: number;
  bytes_down: number;
  last_at: string;
};

/** Which hosts each skill's tools tried in the window (from the Links' signed egress records). */
export async function auditHosts(p: { userId: string; days: number; now?: Date }): Promise<AuditHostRow[]> {
  const days = assertAuditDays(p.days);
  const since = new Date((p.now ?? new Date()).getTime() - days * DAY_MS);
  const rows = await db.$queryRaw<
    {
      slug: string;
      host: string;
      port: number;
      verdict: string;
      runs: number;
      attempts: bigint;
      up: bigint;
      down: bigint;
      last_at: Date;
    }[]
  >`
    SELECT sk.slug, e->>'host' AS host, (e->>'port')::int AS port, e->>'verdict' AS verdict,
      COUNT(DISTINCT j.id)::int AS runs, SUM((e->>'count')::bigint) AS attempts,
      SUM((e->>'bytes_up')::bigint) AS up, SUM((e->>'bytes_down')::bigint) AS down, MAX(s."createdAt") AS last_at
    FROM "Step" AS s
    JOIN "RunJob" AS j ON j."stepId" = s.id
    JOIN "SkillVersion" AS v ON v.id = s."versionId"
    JOIN "Skill" AS sk ON sk.id = v."skillId"
    CROSS JOIN LATERAL jsonb_array_elements(
      CASE WHEN jsonb_typeof(j.attestation->'statement'->'egress') = 'array' THEN j.attestation->'statement'->'egress' ELSE '[]'::jsonb END
    ) AS e
    WHERE s."userId" = ${p.userId} AND s.kind = ${SKILL_RUN_KIND} AND s."createdAt" >= ${since}
    GROUP BY 1, 2, 3, 4
    ORDER BY last_at DESC, 1, 2
    LIMIT 500`;
  return rows.map((r) => ({
    slug: r.slug,
    host: r.host,
    port: r.port,
    verdict: r.verdict === "denied" ? "denied" : "allowed",
    runs: r.runs,
    attempts: Number(r.attempts),
    bytes_up: Number(r.up),
    bytes_down: Number(r.down),
    last_at: r.last_at.toISOString(),
  }));
}

export type AuditReport = AuditPage & { summary: AuditSummaryRow[]; hosts: AuditHostRow[] };

/**
 * The audit of one window as a person reads it: a page of runs (`slug` narrows only this page),
 * which tools ran, and which hosts they tried, all counted from the same instant.
 */
export async function auditReport(p: AuditQuery): Promise<AuditReport> {
  const window = { userId: p.userId, days: p.days, now: p.now ?? new Date() };
  const [page, summary, hosts] = await Promise.all([
    listAudit({ ...window, cursor: p.cursor, limit: p.limit, slug: p.slug }),
    auditSummary(window),
    auditHosts(window),
  ]);
  return { ...page, summary, hosts };
}

export const AUDIT_CSV_HEADER = [
  "time_utc",
  "skill",
  "version",
  "tool",
  "agent",
  "status",
  "exit",
  "wall_ms",
  "net",
  "step_id",
  "hosts",
];

export function auditCsvLine(r: AuditRow): string {
  return csvRow([
    r.at,
    r.slug,
    r.version,
    r.tool,
    r.agent,
    r.status,
    r.exit,
    r.wall_ms,
    r.net,
    r.id,
    r.hosts.join("; "),
  ]);
}

/** The audit of the last N days as a CSV file, streamed a page at a time. */
export function auditCsv(p: { userId: string; days: number; now?: Date }): {
  filename: string;
  stream: ReadableStream<Uint8Array>;
} {
  const days = assertAuditDays(p.days);
  const now = p.now ?? new Date();
  const encoder = new TextEncoder();
  let cursor: string | null = null;
  let sent = 0;
  let started = false;
  const stream = new ReadableStream<Uint8Array>({
    async pull(controller) {
      if (!started) {
        started = true;
        controller.enqueue(encoder.encode(csvRow(AUDIT_CSV_HEADER)));
        return;
      }
      const page = await listAudit({ userId: p.userId, days, cursor, limit: AUDIT_PAGE_MAX, now });
      const room = AUDIT_EXPORT_MAX_ROWS - sent;
      const rows = page.steps.slice(0, room);
      sent += rows.length;
      if (rows.length) controller.enqueue(encoder.encode(rows.map(auditCsvLine).join("")));
      cursor = page.next_cursor;
      if (!cursor || sent >= AUDIT_EXPORT_MAX_ROWS) controller.close();
    },
  });
  const date = now.toISOString().slice(0, 10);
  return { filename: `openvibe-skills-audit-${days}d-${date}.csv`, stream };
}
