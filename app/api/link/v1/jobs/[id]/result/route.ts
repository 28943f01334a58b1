import { route } from "@/lib/http/route";
import { authenticateLink } from "@/lib/links";
import { resultRequestSchema } from "@/lib/protocol";
import { recordResult } from "@/lib/runs";

export const POST = route({
  rawBody: true,
  auth: authenticateLink,
  body: resultRequestSchema,
  maxBodyBytes: 256 * 1024,
  handler: async ({ principal, params, body }) => recordResult(principal, params.id ?? "", body),
  // A job's first result does not count against its Link; a repeat or a refusal does.
  uncountedIf: (answer) => answer.recorded,
});
