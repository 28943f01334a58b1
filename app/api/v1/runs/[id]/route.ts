import { sessionPrincipal } from "@/lib/auth";
import { route } from "@/lib/http/route";
import { getRunForPerson } from "@/lib/runs";

export const GET = route({
  auth: sessionPrincipal,
  handler: async ({ principal, params }) => getRunForPerson(principal.userId, params.id ?? ""),
});
