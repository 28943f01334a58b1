import { setAllowance } from "@/lib/agents";
import { scopedPrincipal } from "@/lib/auth";
import { route } from "@/lib/http/route";
import { allowanceBody } from "@/lib/openapi/schemas";

/** The agent's daily spend allowance when it acts alone, in micro-units. */
export const PUT = route({
  auth: scopedPrincipal("agents"),
  body: allowanceBody,
  handler: async ({ principal, params, body }) =>
    setAllowance(principal.userId, params.id ?? "", BigInt(body.daily_limit_micros)),
});
