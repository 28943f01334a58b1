import { operatorPrincipal } from "@/lib/admin";
import { route } from "@/lib/http/route";
import { approvePoolLink, revokePoolLink } from "@/lib/links";

/** Operators approve a Link as an OpenVibe pool machine; to anyone else this route does not exist (404). */
export const POST = route({
  auth: operatorPrincipal,
  handler: async ({ principal, params }) => approvePoolLink({ operatorId: principal.userId }, params.id ?? ""),
});

export const DELETE = route({
  auth: operatorPrincipal,
  handler: async ({ principal, params }) => revokePoolLink({ operatorId: principal.userId }, params.id ?? ""),
});
