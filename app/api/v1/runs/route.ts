import { scopedPrincipal } from "@/lib/auth";
import { route, z } from "@/lib/http/route";
import { LIST_QUERY, listRuns, runFilterFromQuery, runJson } from "@/lib/runs";

/** The person's runs, newest first, in keyset pages (`cursor`), filtered by skill, tool, agent, status and UTC days. */
export const GET = route({
  auth: scopedPrincipal("runs:read"),
  query: z.object(LIST_QUERY),
  handler: async ({ principal, query }) => {
    const page = await listRuns(principal.userId, runFilterFromQuery(query));
    return { runs: page.runs.map(runJson), next_cursor: page.nextCursor };
  },
});
