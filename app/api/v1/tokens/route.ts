import { API_TOKEN_SCOPES, createApiToken, listApiTokens, MAX_TOKEN_DAYS, sessionPrincipal } from "@/lib/auth";
import { json, route, z } from "@/lib/http/route";

export const GET = route({
  auth: sessionPrincipal,
  handler: async ({ principal }) => ({ tokens: await listApiTokens(principal.userId) }),
});

export const POST = route({
  auth: sessionPrincipal,
  body: z.object({
    name: z.string().trim().min(1, "Name the token.").max(64, "A token name is at most 64 characters."),
    scopes: z.array(z.enum(API_TOKEN_SCOPES)).min(1, "Pick at least one scope.").max(API_TOKEN_SCOPES.length * 2).optional(),
    expires_in_days: z.number().int().min(1).max(MAX_TOKEN_DAYS).nullable().optional(),
  }),
  handler: async ({ principal, body, requestId }) => {
    const { token, secret } = await createApiToken(principal.userId, body.name, {
      scopes: body.scopes,
      expiresInDays: body.expires_in_days ?? null,
    });
    return json({ token, secret }, 201, requestId);
  },
});
