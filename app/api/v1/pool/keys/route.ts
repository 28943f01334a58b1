import { route } from "@/lib/http/route";
import { poolKeys } from "@/lib/links";

/** The public keys of OpenVibe's pool machines (operator-approved Links). */
export const GET = route({ handler: async () => poolKeys() });
