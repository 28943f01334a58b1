// The person's steps (GET /api/v1/steps): newest first, in keyset pages, with the runs list's
// filter and cursor (lib/runs/list.ts) over a step's own status; `pending` keeps those still
// waiting for the person's decision.
import "server-only";
import { db, Prisma, type StepStatus } from "../db";
import { STEP_STATUSES } from "../runs/lifecycle/table";
import { encodeRunCursor, keysetWhere, listFilter, type ListFilter } from "../runs/list";
import { personStepInclude, stepForPerson } from "./index";

export const STEPS_PAGE_DEFAULT = 50;
export const STEPS_PAGE_MAX = 200;

export type StepFilter = ListFilter<StepStatus> & { pending?: boolean };

/** The filter from the query string: the runs list's parameters, plus `pending=1`. */
export function stepFilterFromQuery(q: Record<string, string | undefined>): StepFilter {
  return { ...listFilter(q, STEP_STATUSES, STEPS_PAGE_MAX), pending: q.pending === "1" };
}

/** One page of the person's steps, newest first; `nextCursor` continues it. */
export async function listStepsPage(userId: string, filter: StepFilter = {}) {
  const take = Math.min(filter.limit ?? STEPS_PAGE_DEFAULT, STEPS_PAGE_MAX);
  const where: Prisma.StepWhereInput = {
    userId,
    ...(filter.pending ? { status: "pending_approval", expiresAt: { gt: new Date() } } : {}),
    ...(filter.state ? { status: filter.state } : {}),
    ...(filter.skill ? { version: { skill: { slug: filter.skill } } } : {}),
    ...(filter.tool ? { tool: filter.tool } : {}),
    ...(filter.agentId ? { agentId: filter.agentId } : {}),
    AND: keysetWhere(filter),
  };
  const rows = await db.step.findMany({
    where,
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    take: take + 1,
    include: personStepInclude,
  });
  const page = rows.slice(0, take);
  const last = page.at(-1);
  return {
    steps: page.map(stepForPerson),
    nextCursor: rows.length > take && last ? encodeRunCursor({ created_at: last.createdAt, id: last.id }) : null,
  };
}
