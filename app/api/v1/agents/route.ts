import { createAgent, listAgents } from "@/lib/agents";
import { scopedPrincipal } from "@/lib/auth";
import { json, route } from "@/lib/http/route";
import { agentCreateBody } from "@/lib/openapi/schemas";

export const GET = route({
  auth: scopedPrincipal("agents"),
  handler: async ({ principal }) => ({ agents: await listAgents(principal.userId) }),
});

/** The agent's token is in this answer and nowhere else, ever. */
export const POST = route({
  auth: scopedPrincipal("agents"),
  body: agentCreateBody,
  handler: async ({ principal, body, requestId }) => json(await createAgent(principal.userId, body), 201, requestId),
});
