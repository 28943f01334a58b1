import { scopedPrincipal } from "@/lib/auth";
import { route } from "@/lib/http/route";
import { listLinks } from "@/lib/links";

export const GET = route({
  auth: scopedPrincipal("links"),
  handler: async ({ principal }) => ({ links: await listLinks(principal.userId) }),
});
