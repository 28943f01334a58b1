import { createAgent, listAgents } from "@/lib/agents";
import { scopedPrincipal } from "@/lib/auth";
import { json, route, z } from "@/lib/http/route";

export const GET = route({
  auth: scopedPrincipal("agents"),
  handler: async ({ principal }) => ({ agents: await listAgents(principal.userId) }),
});

/** The agent's token is in this answer and nowhere else, ever. */
export const POST = route({
  auth: scopedPrincipal("agents"),
  body: z.object({ name: z.string().trim().min(1).max(64), projectId: z.string().max(64).optional() }),
  handler: async ({ principal, body, requestId }) => json(await createAgent(principal.userId, body), 201, requestId),
});
