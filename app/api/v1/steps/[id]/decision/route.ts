import { sessionPrincipal } from "@/lib/auth";
import { route } from "@/lib/http/route";
import { decideStep } from "@/lib/steps";
import { decisionBody } from "@/lib/openapi/schemas";

export const POST = route({
  auth: sessionPrincipal,
  body: decisionBody,
  handler: async ({ principal, params, body }) => decideStep(principal.userId, params.id ?? "", body.decision),
});
