import { scopedPrincipal } from "@/lib/auth";
import { route } from "@/lib/http/route";
import { setProjectPool } from "@/lib/runs";
import { projectPatchBody } from "@/lib/openapi/schemas";

/** The project's choice whether its runs may go to OpenVibe's pool (`allow_pool`). */
export const PATCH = route({
  auth: scopedPrincipal("links"),
  body: projectPatchBody,
  handler: async ({ principal, params, body }) => setProjectPool(principal.userId, params.id ?? "", body.allow_pool),
});
