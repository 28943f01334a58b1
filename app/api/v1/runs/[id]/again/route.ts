import { sessionPrincipal } from "@/lib/auth";
import { json, route } from "@/lib/http/route";
import { runAgain } from "@/lib/steps/run-again";

/** "Run again": a new step with the same tool and input; it waits for approval as any call does. */
export const POST = route({
  auth: sessionPrincipal,
  handler: async ({ principal, params, requestId }) =>
    json(await runAgain(principal.userId, (params.id ?? "").slice(0, 64)), 201, requestId),
});
