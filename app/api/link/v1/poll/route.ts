import { route } from "@/lib/http/route";
import { authenticateLink } from "@/lib/links";
import { pollRequestSchema } from "@/lib/protocol";
import { pollForJob } from "@/lib/runs";

/** Long-poll for the next job; the body also reports the Link's runner state and pool offer. */
export const POST = route({
  rawBody: true,
  auth: authenticateLink,
  body: pollRequestSchema,
  handler: async ({ req, principal, body }) => pollForJob(principal, body, req.signal),
  // A poll that hands over jobs is the server's own work: only empty polls count against the Link.
  uncountedIf: (answer) => answer.job !== null,
});
