import { apiPrincipal } from "@/lib/auth";
import { route } from "@/lib/http/route";

export const GET = route({
  auth: apiPrincipal,
  handler: async ({ principal }) => ({
    user: { id: principal.userId, email: principal.email, name: principal.name, handle: principal.handle },
    via: principal.via,
    ...(principal.via === "token" ? { scopes: principal.scopes } : {}),
  }),
});
