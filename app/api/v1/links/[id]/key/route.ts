import { route } from "@/lib/http/route";
import { linkKey } from "@/lib/links";

/** A Link's public signing key, for checking its signed runs (public: see lib/links/keys.ts). */
export const GET = route({ handler: async ({ params }) => linkKey(params.id ?? "") });
