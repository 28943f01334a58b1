import { scopedPrincipal } from "@/lib/auth";
import { json, route, z } from "@/lib/http/route";
import { publishFromRequest } from "@/lib/registry/publish-request";

export const POST = route({
  auth: scopedPrincipal("skills:publish"),
  rateLimit: "publish",
  query: z.object({
    dry_run: z.enum(["0", "1", "true", "false"]).optional(),
    // A SKILL.md folder without metadata.version states it here (`openvibe publish --version`).
    version: z.string().max(64).optional(),
  }),
  idempotent: true,
  handler: async ({ principal, req, query, requestId }) => {
    const dryRun = query.dry_run === "1" || query.dry_run === "true";
    const result = await publishFromRequest(principal.userId, req, { dryRun, version: query.version });
    return json(result, result.created ? 201 : 200, requestId);
  },
});
