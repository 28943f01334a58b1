// GET /api/v1/search?q=…&runs=…&net=…&status=…&trust=…&sort=…&page=…&after=… — the browse page's
// search as JSON (public, like the pages): each skill's latest live version, ranked, filtered and
// paged; `next` is the `after` value of the following page (keyset), null on the last one.
import { route } from "@/lib/http/route";
import { parseBrowseQuery } from "@/lib/registry/browse-query";
import { nextCursorParam, searchSkills } from "@/lib/registry/search";

export const GET = route({
  handler: async ({ req }) => {
    const result = await searchSkills(parseBrowseQuery(new URL(req.url).searchParams));
    return {
      query: result.query,
      total: result.total,
      total_capped: result.totalCapped,
      pages: result.pages,
      next: nextCursorParam(result),
      skills: result.skills.map((s) => ({
        slug: s.slug,
        version: s.version,
        name: s.name,
        summary: s.summary,
        author: s.author.handle,
        trust: s.trust,
        installs: s.installs,
        status: s.status,
        runs: s.runs,
        tools: s.tools,
        published_at: s.publishedAt,
      })),
    };
  },
});
