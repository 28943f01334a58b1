import { json, route, z } from "@/lib/http/route";
import { pairLink } from "@/lib/links";

export const POST = route({
  rawBody: true,
  body: z.object({
    code: z.string().trim().min(6).max(32),
    name: z
      .string()
      .trim()
      .min(1)
      .max(64)
      .regex(/^[\p{L}\p{N} ._'()-]+$/u, "Use letters, digits, spaces and . _ ' ( ) -"),
  }),
  handler: async ({ req, rawBody, body, requestId }) => json(await pairLink(req, rawBody, body), 201, requestId),
});
