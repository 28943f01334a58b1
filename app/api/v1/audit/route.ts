import { scopedPrincipal } from "@/lib/auth";
import { route, z } from "@/lib/http/route";
import {
  AUDIT_DAYS_DEFAULT,
  AUDIT_DAYS_MAX,
  AUDIT_DAYS_MIN,
  auditHosts,
  auditSummary,
  listAudit,
} from "@/lib/installs";

/** Which tools of which skill ran in the last `days` days, newest first, paged by `cursor`; the hosts they tried. */
export const GET = route({
  auth: scopedPrincipal("runs:read"),
  query: z.object({
    days: z.coerce.number().int().min(AUDIT_DAYS_MIN).max(AUDIT_DAYS_MAX).default(AUDIT_DAYS_DEFAULT),
    cursor: z.string().max(200).optional(),
    limit: z.coerce.number().int().min(1).max(200).default(50),
    skill: z.string().min(1).max(64).optional(),
  }),
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
