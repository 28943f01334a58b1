// The person's runs (/dashboard/runs, GET /api/v1/runs): every Run job of their projects, newest
// first, filtered by skill, tool, agent, state and UTC day, in keyset pages (the cursor is the last
// row's time and id, so a page costs the same however far back it is). Someone else's run is never
// in it. GET /api/v1/steps pages the person's steps with the same filter and cursor (listFilter,
// keysetWhere).
import "server-only";
import { TOOL_NAME_PATTERN } from "../contracts/limits";
import { db, Prisma, type JobState } from "../db";
import { AppError } from "../errors";
import { formatMicros } from "../billing/rates";
import { ranOnWords } from "./view";

export const RUN_STATES = [
  "queued",
  "placed",
  "running",
  "succeeded",
  "failed",
  "cancelled",
  "expired",
] as const satisfies readonly JobState[];
export const RUNS_PAGE_DEFAULT = 25;
export const RUNS_PAGE_MAX = 100;
const DAY_MS = 86_400_000;
const DAY = /^(\d{4})-(\d{2})-(\d{2})$/;
const SKILL_SLUG = /^[a-z0-9][a-z0-9-]{0,62}[a-z0-9]?$/;
const ID = /^[A-Za-z0-9_-]{1,64}$/;
const TOOL = new RegExp(TOOL_NAME_PATTERN);
// `<milliseconds since 1970>.<job id>`: what the last row of a page was.
const CURSOR = /^(\d{1,15})\.([A-Za-z0-9_-]{1,64})$/;

/** The filter of a list of runs or steps; `S` is what its status can be. */
export type ListFilter<S extends string> = {
  skill?: string;
  tool?: string;
  agentId?: string;
  state?: S;
  /** First UTC day included. */
  from?: Date;
  /** Start of the UTC day after the last one included. */
  until?: Date;
  cursor?: { at: Date; id: string };
  limit?: number;
};

export type RunFilter = ListFilter<JobState>;

export { LIST_QUERY } from "../openapi/schemas";

const invalid = (field: string, message: string) =>
  new AppError("run.filter_invalid", `The "${field}" filter ${message}.`, {
    details: [{ path: `/${field}`, message }],
  });

function parseDay(text: string, field: string): Date {
  const m = DAY.exec(text);
  const date = m ? new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]))) : null;
  if (!date || Number.isNaN(date.getTime()) || date.toISOString().slice(0, 10) !== text)
    throw invalid(field, "is a day written YYYY-MM-DD");
  return date;
}

export function encodeRunCursor(row: { created_at: Date; id: string }): string {
  return `${row.created_at.getTime()}.${row.id}`;
}

function decodeRunCursor(text: string): { at: Date; id: string } {
  const m = CURSOR.exec(text);
  const at = m ? new Date(Number(m[1])) : null;
  if (!m || !at || Number.isNaN(at.getTime()))
    throw new AppError("run.cursor_invalid", "That page cursor is not valid.");
  return { at, id: m[2] as string };
}

/** The filter from query parameters (the page's and the API's), each checked and bounded. */
export function runFilterFromQuery(q: Record<string, string | undefined>): RunFilter {
  return listFilter(q, RUN_STATES, RUNS_PAGE_MAX);
}

/** A list filter from query parameters: `statuses` are the values `status` may take. */
export function listFilter<S extends string>(
  q: Record<string, string | undefined>,
  statuses: readonly S[],
  pageMax: number,
): ListFilter<S> {
  const filter: ListFilter<S> = {};
  if (q.skill) {
    if (q.skill.length > 64 || !SKILL_SLUG.test(q.skill)) throw invalid("skill", "is a skill's slug");
    filter.skill = q.skill;
  }
  if (q.tool) {
    if (!TOOL.test(q.tool)) throw invalid("tool", "is a tool's name");
    filter.tool = q.tool;
  }
  if (q.agent) {
    if (!ID.test(q.agent)) throw invalid("agent", "is an agent id");
    filter.agentId = q.agent;
  }
  if (q.status) {
    const status = statuses.find((s) => s === q.status);
    if (!status) throw invalid("status", `is one of ${statuses.join(", ")}`);
    filter.state = status;
  }
  if (q.from) filter.from = parseDay(q.from, "from");
  if (q.to) filter.until = new Date(parseDay(q.to, "to").getTime() + DAY_MS);
  if (filter.from && filter.until && filter.from >= filter.until) throw invalid("to", "is on or after the from day");
  if (q.cursor) filter.cursor = decodeRunCursor(q.cursor);
  if (q.limit) {
    const n = Number(q.limit);
    if (!Number.isInteger(n) || n < 1 || n > pageMax) throw invalid("limit", `is 1-${pageMax}`);
    filter.limit = n;
  }
  return filter;
}

/** The time range and the keyset position of a filter, for any table ordered by (createdAt, id) desc. */
export function keysetWhere(filter: ListFilter<string>) {
  const { from, until, cursor } = filter;
  return [
    from || until ? { createdAt: { ...(from ? { gte: from } : {}), ...(until ? { lt: until } : {}) } } : {},
    cursor ? { OR: [{ createdAt: { lt: cursor.at } }, { createdAt: cursor.at, id: { lt: cursor.id } }] } : {},
  ];
}

export type RunRow = {
  id: string;
  step_id: string | null;
  skill: string;
  version: string;
  tool: string;
  agent: string | null;
  state: JobState;
  /** "your Link <name>" or "OpenVibe pool"; null while nobody took it. */
  ran_on: string | null;
  placement: "own" | "pool" | null;
  wall_ms: number | null;
  cost_micros: bigint | null;
  created_at: Date;
};

/** One page of the person's runs, newest first; `nextCursor` continues it. */
export async function listRuns(
  userId: string,
  filter: RunFilter = {},
): Promise<{ runs: RunRow[]; nextCursor: string | null }> {
  const take = Math.min(filter.limit ?? RUNS_PAGE_DEFAULT, RUNS_PAGE_MAX);
  const where: Prisma.RunJobWhereInput = {
    userId,
    // Runs of the person's own projects only, even if a row ever named someone else's project.
    project: { ownerId: userId },
    ...(filter.state ? { state: filter.state } : {}),
    ...(filter.skill ? { version: { skill: { slug: filter.skill } } } : {}),
    ...(filter.tool ? { tool: filter.tool } : {}),
    ...(filter.agentId ? { step: { agentId: filter.agentId } } : {}),
    AND: keysetWhere(filter),
  };
  const rows = await db.runJob.findMany({
    where,
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    take: take + 1,
    select: {
      id: true,
      stepId: true,
      tool: true,
      state: true,
      placement: true,
      wallMsUsed: true,
      costMicros: true,
      createdAt: true,
      link: { select: { name: true } },
      version: { select: { version: true, skill: { select: { slug: true } } } },
      step: { select: { agent: { select: { name: true } } } },
    },
  });
  const page = rows.slice(0, take).map((r): RunRow => ({
    id: r.id,
    step_id: r.stepId,
    skill: r.version.skill.slug,
    version: r.version.version,
    tool: r.tool,
    agent: r.step?.agent?.name ?? null,
    state: r.state,
    ran_on: ranOnWords(r),
    placement: r.placement,
    wall_ms: r.wallMsUsed,
    cost_micros: r.costMicros,
    created_at: r.createdAt,
  }));
  const last = page[page.length - 1];
  return { runs: page, nextCursor: rows.length > take && last ? encodeRunCursor(last) : null };
}

/** What the filters offer: the skills the person ran and their agents. */
export async function runFacets(userId: string): Promise<{ skills: string[]; agents: { id: string; name: string }[] }> {
  const [versions, agents] = await Promise.all([
    db.skillVersion.findMany({
      where: { jobs: { some: { userId } } },
      select: { skill: { select: { slug: true } } },
      take: 500,
    }),
    db.agent.findMany({
      where: { userId },
      select: { id: true, name: true },
      orderBy: { createdAt: "asc" },
      take: 200,
    }),
  ]);
  return { skills: [...new Set(versions.map((v) => v.skill.slug))].sort(), agents };
}

/** A run in the API's words: money as a string of micro-units plus the same amount for people. */
export const runJson = (r: RunRow) => ({
  id: r.id,
  step_id: r.step_id,
  skill: r.skill,
  version: r.version,
  tool: r.tool,
  agent: r.agent,
  status: r.state,
  ran_on: r.ran_on,
  placement: r.placement,
  wall_ms: r.wall_ms,
  cost_micros: r.cost_micros === null ? null : r.cost_micros.toString(),
  cost: r.cost_micros === null ? null : formatMicros(r.cost_micros),
  created_at: r.created_at.toISOString(),
});
