import { scopedPrincipal } from "@/lib/auth";
import { json, route } from "@/lib/http/route";
import { publishFromRequest } from "@/lib/registry/publish-request";
import { publishQuery } from "@/lib/openapi/schemas";

export const POST = route({
  auth: scopedPrincipal("skills:publish"),
  rateLimit: "publish",
  query: publishQuery,
  idempotent: true,
  handler: async ({ principal, req, query, requestId }) => {
    const dryRun = query.dry_run === "1" || query.dry_run === "true";
    const result = await publishFromRequest(principal.userId, req, { dryRun, version: query.version });
    return json(result, result.created ? 201 : 200, requestId);
  },
});
