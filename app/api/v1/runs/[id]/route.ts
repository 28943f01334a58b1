import { scopedPrincipal } from "@/lib/auth";
import { route } from "@/lib/http/route";
import { getRunForPerson } from "@/lib/runs";

export const GET = route({
  auth: scopedPrincipal("runs:read"),
  handler: async ({ principal, params }) => getRunForPerson(principal.userId, params.id ?? ""),
});
