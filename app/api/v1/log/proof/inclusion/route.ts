import { route } from "@/lib/http/route";
import { inclusionProof } from "@/lib/tlog";

/** `?leaf=<index>&size=<tree size>`: the hashes from that entry up to the root of the tree of `size`. */
export const GET = route({ handler: async ({ req }) => inclusionProof(new URL(req.url).searchParams) });
