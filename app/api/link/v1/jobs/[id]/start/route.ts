import { route } from "@/lib/http/route";
import { authenticateLink } from "@/lib/links";
import { startJob } from "@/lib/runs";

export const POST = route({
  rawBody: true,
  auth: authenticateLink,
  handler: async ({ principal, params }) => startJob(principal, params.id ?? ""),
});
