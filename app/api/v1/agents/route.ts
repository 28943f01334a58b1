import { createAgent, listAgents } from "@/lib/agents";
import { sessionPrincipal } from "@/lib/auth";
import { json, route } from "@/lib/http/route";
import { agentCreateBody } from "@/lib/openapi/schemas";

export const GET = route({
  auth: sessionPrincipal,
  handler: async ({ principal }) => ({ agents: await listAgents(principal.userId) }),
});

/** The agent's token is in this answer and nowhere else, ever. */
export const POST = route({
  auth: sessionPrincipal,
  body: agentCreateBody,
  handler: async ({ principal, body, requestId }) => json(await createAgent(principal.userId, body), 201, requestId),
});
