import { route } from "@/lib/http/route";
import { authenticateLink } from "@/lib/links";
import { resultRequestSchema } from "@/lib/protocol";
import { recordResultAndClaim } from "@/lib/runs";

export const POST = route({
  rawBody: true,
  auth: authenticateLink,
  body: resultRequestSchema,
  maxBodyBytes: 256 * 1024,
  // With `next`, the answer also hands over the jobs for the slot this result frees.
  handler: async ({ req, principal, params, body }) =>
    recordResultAndClaim(principal, params.id ?? "", body, req.signal),
  // A job's first result (and the jobs it brings back) does not count against its Link; a repeat or a refusal does.
  uncountedIf: (answer) => answer.recorded,
});
