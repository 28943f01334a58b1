import { route } from "@/lib/http/route";
import { logKey } from "@/lib/tlog";

/** The public key that signs the log's checkpoints, as a C2SP verifier key and as raw bytes. */
export const GET = route({ handler: async () => logKey() });
