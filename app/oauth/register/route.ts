import { clientIp } from "@/lib/auth";
import { oauthJson, oauthRoute, preflight, readJson, registerClient } from "@/lib/oauth";

// RFC 7591 dynamic client registration: how an MCP client added by URL alone gets a client id.
export const POST = oauthRoute(async (req) => oauthJson(await registerClient(await readJson(req), clientIp(req.headers)), 201));
export const OPTIONS = async () => preflight();
