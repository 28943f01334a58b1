import { scopedPrincipal } from "@/lib/auth";
import { route } from "@/lib/http/route";
import { listGrants } from "@/lib/installs";

/** The person's active "always allow" grants, one per skill version and tool. */
export const GET = route({
  auth: scopedPrincipal("installs"),
  handler: async ({ principal }) => ({ grants: await listGrants(principal.userId) }),
});
