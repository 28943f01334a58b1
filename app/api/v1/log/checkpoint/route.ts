import { route } from "@/lib/http/route";
import { checkpointNote } from "@/lib/tlog";

/** The current signed tree head, as a C2SP signed note (c2sp.org/tlog-checkpoint). */
export const GET = route({
  handler: async ({ requestId }) =>
    new Response(await checkpointNote(), {
      headers: { "content-type": "text/plain; charset=utf-8", "cache-control": "no-store", "x-request-id": requestId },
    }),
});
