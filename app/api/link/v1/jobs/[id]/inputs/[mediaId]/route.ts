import { route } from "@/lib/http/route";
import { authenticateLink } from "@/lib/links";
import { jobInputBytes } from "@/lib/runs";

/** One pinned input's bytes; the Link checks them against the sha256 the job pinned. */
export const GET = route({
  rawBody: true,
  auth: authenticateLink,
  handler: async ({ principal, params }) => {
    const bytes = await jobInputBytes(principal, params.id ?? "", params.mediaId ?? "");
    return new Response(new Uint8Array(bytes), {
      headers: {
        "content-type": "application/octet-stream",
        "cache-control": "no-store",
        "content-length": String(bytes.length),
      },
    });
  },
});
