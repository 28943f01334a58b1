import { route } from "@/lib/http/route";
import { listingDocument } from "@/lib/registry";

export const GET = route({
  handler: async ({ params }) => listingDocument(params.slug ?? "", params.version ?? ""),
});
