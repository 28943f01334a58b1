import { route, z } from "@/lib/http/route";
import { authenticateLink, reportLinkState } from "@/lib/links";
import { pollForJob } from "@/lib/runs";

/** Long-poll for the next job; the body also reports the Link's runner state and pool offer. */
export const POST = route({
  rawBody: true,
  auth: authenticateLink,
  body: z.object({ runner: z.enum(["on", "off"]), pool: z.boolean(), wait_ms: z.number().int().min(0).max(25_000) }),
  handler: async ({ req, principal, body }) => {
    await reportLinkState(principal.linkId, body);
    const link = { ...principal, runnerEnabled: body.runner === "on", poolOffer: body.pool };
    return { job: await pollForJob(link, body.wait_ms, req.signal) };
  },
});
