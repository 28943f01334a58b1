import { sessionPrincipal } from "@/lib/auth";
import { route, z } from "@/lib/http/route";
import { decideStep } from "@/lib/steps";

export const POST = route({
  auth: sessionPrincipal,
  body: z.object({ decision: z.enum(["once", "always", "deny"]) }),
  handler: async ({ principal, params, body }) => decideStep(principal.userId, params.id ?? "", body.decision),
});
