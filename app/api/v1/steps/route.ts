import { agentPrincipal } from "@/lib/agents";
import { scopedPrincipal } from "@/lib/auth";
import { json, route } from "@/lib/http/route";
import { createSkillRunStep } from "@/lib/steps";
import { listStepsPage, stepFilterFromQuery } from "@/lib/steps/list";
import { stepCreateBody, stepsQuery } from "@/lib/openapi/schemas";

/** An agent calls a tool: `{ skill: "<slug>@<version>", tool, input }`; an `Idempotency-Key` makes a retry safe. */
export const POST = route({
  auth: agentPrincipal,
  body: stepCreateBody,
  idempotent: true,
  handler: async ({ principal, body, requestId, idempotencyKey }) =>
    json(await createSkillRunStep(principal, body, { idempotencyKey }), 201, requestId),
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
