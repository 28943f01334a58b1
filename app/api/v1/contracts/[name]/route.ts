// GET /api/v1/contracts/<name>: the published JSON Schema of a contract (actor.skill@1, @2,
// actor.skill-listing@1, @2), read-only and public.
import { contractSchema } from "@/lib/contracts";
import { AppError } from "@/lib/errors";
import { route } from "@/lib/http/route";

export const GET = route({
  handler: async ({ params, requestId }) => {
    const name = decodeOnce(params.name ?? "");
    const schema = contractSchema(name);
    if (!schema) throw new AppError("contract.not_found", `There is no contract named "${name.slice(0, 100)}".`);
    return new Response(JSON.stringify(schema, null, 2), {
      status: 200,
      headers: {
        "content-type": "application/schema+json; charset=utf-8",
        "cache-control": "public, max-age=300",
        "x-request-id": requestId,
      },
    });
  },
});

// Some runtimes hand the segment over still percent-encoded (`actor.skill%402`).
function decodeOnce(segment: string): string {
  try {
    return segment.includes("%") ? decodeURIComponent(segment) : segment;
  } catch {
    return segment;
  }
}
