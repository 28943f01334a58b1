import { scopedPrincipal } from "@/lib/auth";
import { route } from "@/lib/http/route";
import { auditReport } from "@/lib/installs";
import { auditQuery } from "@/lib/openapi/schemas";

/** Which tools of which skill ran in the last `days` days, newest first, paged by `cursor`; the hosts they tried. */
export const GET = route({
  auth: scopedPrincipal("runs:read"),
  query: auditQuery,
  handler: ({ principal, query }) =>
    auditReport({
      userId: principal.userId,
      days: query.days,
      cursor: query.cursor ?? null,
      limit: query.limit,
      slug: query.skill,
    }),
});
