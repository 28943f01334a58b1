import { route } from "@/lib/http/route";
import { consistencyProof } from "@/lib/tlog";

/** `?from=<size>&to=<size>`: the hashes that show the tree of `to` extends the tree of `from`. */
export const GET = route({ handler: async ({ req }) => consistencyProof(new URL(req.url).searchParams) });
