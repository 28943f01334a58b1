import { revokeApiToken, sessionPrincipal } from "@/lib/auth";
import { route } from "@/lib/http/route";

export const DELETE = route({
  auth: sessionPrincipal,
  handler: async ({ principal, params }) => ({ token: await revokeApiToken(principal.userId, params.id ?? "") }),
});
