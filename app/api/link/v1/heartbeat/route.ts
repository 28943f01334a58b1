import { route } from "@/lib/http/route";
import { authenticateLink } from "@/lib/links";
import { heartbeatRequestSchema } from "@/lib/protocol";
import { heartbeat } from "@/lib/runs";

/** The Link's state, the jobs it holds (their leases renewed), and what it must stop. */
export const POST = route({
  rawBody: true,
  auth: authenticateLink,
  body: heartbeatRequestSchema,
  handler: async ({ principal, body }) => heartbeat(principal, body),
});
