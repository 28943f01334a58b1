import { revokeAgent } from "@/lib/agents";
import { sessionPrincipal } from "@/lib/auth";
import { route } from "@/lib/http/route";

export const DELETE = route({
  auth: sessionPrincipal,
  handler: async ({ principal, params }) => revokeAgent(principal.userId, params.id ?? ""),
});
