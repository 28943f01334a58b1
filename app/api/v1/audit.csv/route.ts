import { scopedPrincipal } from "@/lib/auth";
import { route } from "@/lib/http/route";
import { auditCsv } from "@/lib/installs";
import { auditCsvQuery } from "@/lib/openapi/schemas";

/** The audit of the last `days` days as a CSV file. */
export const GET = route({
  auth: scopedPrincipal("runs:read"),
  query: auditCsvQuery,
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
