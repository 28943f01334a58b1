import { route } from "@/lib/http/route";
import { getVersion } from "@/lib/registry";

/** The skill document exactly as published (defaults applied, integrity included). */
export const GET = route({
  handler: async ({ params }) => (await getVersion(params.slug ?? "", params.version ?? "")).document,
});
