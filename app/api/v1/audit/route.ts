import { scopedPrincipal } from "@/lib/auth";
import { route } from "@/lib/http/route";
import { auditHosts, auditSummary, listAudit } from "@/lib/installs";
import { auditQuery } from "@/lib/openapi/schemas";

/** Which tools of which skill ran in the last `days` days, newest first, paged by `cursor`; the hosts they tried. */
export const GET = route({
  auth: scopedPrincipal("runs:read"),
  query: auditQuery,
  handler: async ({ principal, query }) => {
    const page = await listAudit({
      userId: principal.userId,
      days: query.days,
      cursor: query.cursor ?? null,
      limit: query.limit,
      slug: query.skill,
    });
    const [summary, hosts] = await Promise.all([
      auditSummary({ userId: principal.userId, days: query.days }),
      auditHosts({ userId: principal.userId, days: query.days }),
    ]);
    return { ...page, summary, hosts };
  },
});
