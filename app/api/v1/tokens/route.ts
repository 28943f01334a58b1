import { createApiToken, listApiTokens, sessionPrincipal } from "@/lib/auth";
import { json, route, z } from "@/lib/http/route";

export const GET = route({
  auth: sessionPrincipal,
  handler: async ({ principal }) => ({ tokens: await listApiTokens(principal.userId) }),
});

export const POST = route({
  auth: sessionPrincipal,
  body: z.object({ name: z.string().trim().min(1, "Name the token.").max(64, "A token name is at most 64 characters.") }),
  handler: async ({ principal, body, requestId }) => {
    const { token, secret } = await createApiToken(principal.userId, body.name);
    return json({ token, secret }, 201, requestId);
  },
});
