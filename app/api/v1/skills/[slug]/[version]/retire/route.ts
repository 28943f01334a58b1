import { scopedPrincipal } from "@/lib/auth";
import { route } from "@/lib/http/route";
import { retireVersion } from "@/lib/registry";

export const POST = route({
  auth: scopedPrincipal("skills:publish"),
  handler: async ({ principal, params }) =>
    retireVersion({ ownerId: principal.userId, slug: params.slug ?? "", version: params.version ?? "" }),
});
