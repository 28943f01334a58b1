import { scopedPrincipal } from "@/lib/auth";
import { route } from "@/lib/http/route";
import { revokeLink } from "@/lib/links";

export const DELETE = route({
  auth: scopedPrincipal("links"),
  handler: async ({ principal, params }) => revokeLink(principal.userId, params.id ?? ""),
});
