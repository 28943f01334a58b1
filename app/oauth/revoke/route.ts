import { oauthJson, oauthRoute, preflight, readForm, revokeToken } from "@/lib/oauth";

// RFC 7009 token revocation.
export const POST = oauthRoute(async (req) => {
  await revokeToken(await readForm(req), req.headers.get("authorization"));
  return oauthJson({});
});
export const OPTIONS = async () => preflight();
