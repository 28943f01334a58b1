import { agentPrincipal } from "@/lib/agents";
import { sessionPrincipal } from "@/lib/auth";
import { json, route, z } from "@/lib/http/route";
import { createSkillRunStep, listSteps } from "@/lib/steps";

/** An agent calls a tool: `{ skill: "<slug>@<version>", tool, input }`; an `Idempotency-Key` makes a retry safe. */
export const POST = route({
  auth: agentPrincipal,
  body: z.object({ skill: z.string().max(200), tool: z.string().max(64), input: z.unknown() }),
  idempotent: true,
  handler: async ({ principal, body, requestId, idempotencyKey }) =>
    json(await createSkillRunStep(principal, body, { idempotencyKey }), 201, requestId),
});

/** The person's steps (the dashboard's live list): `?pending=1` for those waiting on them. */
export const GET = route({
  auth: sessionPrincipal,
  query: z.object({
    pending: z.enum(["0", "1"]).optional(),
    limit: z.coerce.number().int().min(1).max(200).optional(),
  }),
  handler: async ({ principal, query }) => ({
    steps: await listSteps(principal.userId, { pending: query.pending === "1", limit: query.limit }),
  }),
});
