import { scopedPrincipal } from "@/lib/auth";
import { route } from "@/lib/http/route";
import { listRuns, runFilterFromQuery, runJson } from "@/lib/runs";
import { runsQuery } from "@/lib/openapi/schemas";

/** The person's runs, newest first, in keyset pages (`cursor`), filtered by skill, tool, agent, status and UTC days. */
export const GET = route({
  auth: scopedPrincipal("runs:read"),
  query: runsQuery,
  handler: async ({ principal, query }) => {
    const page = await listRuns(principal.userId, runFilterFromQuery(query));
    return { runs: page.runs.map(runJson), next_cursor: page.nextCursor };
  },
});
