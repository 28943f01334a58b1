import { createApiToken, listApiTokens, sessionPrincipal } from "@/lib/auth";
import { json, route } from "@/lib/http/route";
import { tokenCreateBody } from "@/lib/openapi/schemas";

export const GET = route({
  auth: sessionPrincipal,
  handler: async ({ principal }) => ({ tokens: await listApiTokens(principal.userId) }),
});

export const POST = route({
  auth: sessionPrincipal,
  body: tokenCreateBody,
  handler: async ({ principal, body, requestId }) => {
    const { token, secret } = await createApiToken(principal.userId, body.name, {
      scopes: body.scopes,
      expiresInDays: body.expires_in_days ?? null,
    });
    return json({ token, secret }, 201, requestId);
  },
});
