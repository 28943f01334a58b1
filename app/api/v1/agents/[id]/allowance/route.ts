import { setAllowance } from "@/lib/agents";
import { scopedPrincipal } from "@/lib/auth";
import { route, z } from "@/lib/http/route";

/** The agent's daily spend allowance when it acts alone, in micro-units. */
export const PUT = route({
  auth: scopedPrincipal("agents"),
  body: z.object({ daily_limit_micros: z.string().regex(/^\d{1,13}$/, "a whole number of micro-units") }),
  handler: async ({ principal, params, body }) =>
    setAllowance(principal.userId, params.id ?? "", BigInt(body.daily_limit_micros)),
});
