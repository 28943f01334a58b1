import { scopedPrincipal } from "@/lib/auth";
import { dayText, usageByDay, usageJson, usageRange } from "@/lib/billing/usage";
import { route } from "@/lib/http/route";
import { usageQuery } from "@/lib/openapi/schemas";

/** What runs cost per UTC day, per skill and per agent (`?from=YYYY-MM-DD&to=YYYY-MM-DD`). */
export const GET = route({
  auth: scopedPrincipal("billing:read"),
  query: usageQuery,
  handler: async ({ principal, query }) => {
    const range = usageRange(query);
    const [bySkill, byAgent] = await Promise.all([
      usageByDay(principal.userId, range, "skill"),
      usageByDay(principal.userId, range, "agent"),
    ]);
    return {
      from: dayText(range.from),
      to: dayText(new Date(range.until.getTime() - 86_400_000)),
      by_skill: usageJson(bySkill),
      by_agent: usageJson(byAgent),
    };
  },
});
