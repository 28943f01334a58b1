import { route } from "@/lib/http/route";
import { versionEntries } from "@/lib/tlog";

/** The log entries of one skill version: its publish, and its retire if it was retired. */
export const GET = route({
  handler: async ({ params }) => versionEntries(params.slug ?? "", params.version ?? ""),
});
