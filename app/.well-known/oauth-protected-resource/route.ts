import { oauthJson, preflight, protectedResourceMetadata } from "@/lib/oauth";

// RFC 9728 protected-resource metadata for /api/mcp (also at the path-suffixed address).
export const dynamic = "force-dynamic";
export const GET = async () => oauthJson(protectedResourceMetadata());
export const OPTIONS = async () => preflight();
