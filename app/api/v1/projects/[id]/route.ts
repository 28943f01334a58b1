import { scopedPrincipal } from "@/lib/auth";
import { route, z } from "@/lib/http/route";
import { setProjectPool } from "@/lib/runs";

/** The project's choice whether its runs may go to OpenVibe's pool (`allow_pool`). */
export const PATCH = route({
  auth: scopedPrincipal("links"),
  body: z.object({ allow_pool: z.boolean() }).strict(),
  handler: async ({ principal, params, body }) => setProjectPool(principal.userId, params.id ?? "", body.allow_pool),
});
