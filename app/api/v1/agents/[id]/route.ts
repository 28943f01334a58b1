import { revokeAgent } from "@/lib/agents";
import { scopedPrincipal } from "@/lib/auth";
import { route } from "@/lib/http/route";

export const DELETE = route({
  auth: scopedPrincipal("agents"),
  handler: async ({ principal, params }) => revokeAgent(principal.userId, params.id ?? ""),
});
