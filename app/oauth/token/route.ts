import { exchangeToken, oauthJson, oauthRoute, preflight, readForm } from "@/lib/oauth";

// RFC 6749 token endpoint: authorization_code (with PKCE) and refresh_token.
export const POST = oauthRoute(async (req) => oauthJson(await exchangeToken(await readForm(req), req.headers.get("authorization"))));
export const OPTIONS = async () => preflight();
