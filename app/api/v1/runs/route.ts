import { sessionPrincipal } from "@/lib/auth";
import { route, z } from "@/lib/http/route";
import { listRuns, runFilterFromQuery, runJson } from "@/lib/runs";

const param = z.string().max(100).optional();

/** The person's runs, newest first, in keyset pages (`cursor`), filtered by skill, tool, agent, status and UTC days. */
export const GET = route({
  auth: sessionPrincipal,
  query: z.object({
    skill: param,
    tool: param,
    agent: param,
    status: param,
    from: param,
    to: param,
    cursor: param,
    limit: param,
  }),
  handler: async ({ principal, query }) => {
    const page = await listRuns(principal.userId, runFilterFromQuery(query));
    return { runs: page.runs.map(runJson), next_cursor: page.nextCursor };
  },
});
