import { scopedPrincipal } from "@/lib/auth";
import { route } from "@/lib/http/route";
import { revokeGrant } from "@/lib/installs";

export const DELETE = route({
  auth: scopedPrincipal("installs"),
  handler: async ({ principal, params }) => ({
    grant: await revokeGrant({ userId: principal.userId, grantId: params.id ?? "" }),
  }),
});
