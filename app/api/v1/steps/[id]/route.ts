import { agentPrincipal } from "@/lib/agents";
import { route } from "@/lib/http/route";
import { getStepForAgent } from "@/lib/steps";
import { stepWaitQuery } from "@/lib/openapi/schemas";

/** The step's state for its agent; `?wait=<s>` long-polls until it changes (at most 30 s), or the agent hangs up. */
export const GET = route({
  auth: agentPrincipal,
  query: stepWaitQuery,
  handler: async ({ req, principal, params, query }) =>
    getStepForAgent(principal, params.id ?? "", query.wait ?? 0, req.signal),
});
