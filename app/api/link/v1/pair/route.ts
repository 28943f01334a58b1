import { json, route } from "@/lib/http/route";
import { pairLink } from "@/lib/links";
import { pairRequestSchema } from "@/lib/protocol";

export const POST = route({
  rawBody: true,
  body: pairRequestSchema,
  handler: async ({ req, rawBody, body, requestId }) => json(await pairLink(req, rawBody, body), 201, requestId),
});
