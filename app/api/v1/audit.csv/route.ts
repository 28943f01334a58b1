import { scopedPrincipal } from "@/lib/auth";
import { route, z } from "@/lib/http/route";
import { AUDIT_DAYS_DEFAULT, AUDIT_DAYS_MAX, AUDIT_DAYS_MIN, auditCsv } from "@/lib/installs";

/** The audit of the last `days` days as a CSV file. */
export const GET = route({
  auth: scopedPrincipal("runs:read"),
  query: z.object({
    days: z.coerce.number().int().min(AUDIT_DAYS_MIN).max(AUDIT_DAYS_MAX).default(AUDIT_DAYS_DEFAULT),
  }),
  handler: async ({ principal, query, requestId }) => {
    const { filename, stream } = auditCsv({ userId: principal.userId, days: query.days });
    return new Response(stream, {
      headers: {
        "content-type": "text/csv; charset=utf-8",
        "content-disposition": `attachment; filename="${filename}"`,
        "cache-control": "no-store",
        "x-request-id": requestId,
      },
    });
  },
});
