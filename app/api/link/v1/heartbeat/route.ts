import { route, z } from "@/lib/http/route";
import { authenticateLink, reportLinkState } from "@/lib/links";

export const POST = route({
  rawBody: true,
  auth: authenticateLink,
  body: z.object({ runner: z.enum(["on", "off"]), pool: z.boolean() }),
  handler: async ({ principal, body }) => ({
    ...(await reportLinkState(principal.linkId, body)),
    server_time: Date.now(),
  }),
});
