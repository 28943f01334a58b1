import { agentPrincipal } from "@/lib/agents";
import { scopedPrincipal } from "@/lib/auth";
import { json, route } from "@/lib/http/route";
import { preferredWaitSeconds } from "@/lib/http/prefer";
import { createSkillRunStep, MAX_WAIT_SECONDS } from "@/lib/steps";
import { listStepsPage, stepFilterFromQuery } from "@/lib/steps/list";
import { stepCreateBody, stepsQuery } from "@/lib/openapi/schemas";

/**
 * An agent calls a tool: `{ skill: "<slug>@<version>", tool, input }`; an `Idempotency-Key` makes a
 * retry safe, and `Prefer: wait=N` answers with the step once it ends (at most N ≤ 30 s).
 */
export const POST = route({
  auth: agentPrincipal,
  body: stepCreateBody,
  idempotent: true,
  handler: async ({ req, principal, body, requestId, idempotencyKey }) => {
    const waitSeconds = preferredWaitSeconds(req.headers.get("prefer"), MAX_WAIT_SECONDS);
    const step = await createSkillRunStep(principal, body, { idempotencyKey, waitSeconds, signal: req.signal });
    const res = json(step, 201, requestId);
    if (waitSeconds) res.headers.set("preference-applied", `wait=${waitSeconds}`);
    return res;
  },
});

/**
 * The person's steps, newest first, in keyset pages (`cursor`): filtered like GET /api/v1/runs
 * (skill, tool, agent, status, UTC days), `?pending=1` for those waiting on them.
 */
export const GET = route({
  auth: scopedPrincipal("runs:read"),
  query: stepsQuery,
  handler: async ({ principal, query }) => {
    const page = await listStepsPage(principal.userId, stepFilterFromQuery(query));
    return { steps: page.steps, next_cursor: page.nextCursor };
  },
});
