import { route } from "@/lib/http/route";
import { authenticateLink } from "@/lib/links";
import { jobResultSchema, recordResult } from "@/lib/runs";

export const POST = route({
  rawBody: true,
  auth: authenticateLink,
  body: jobResultSchema,
  maxBodyBytes: 256 * 1024,
  handler: async ({ principal, params, body }) => recordResult(principal, params.id ?? "", body),
});
