import { authorizationServerMetadata, oauthJson, preflight } from "@/lib/oauth";

// RFC 8414 authorization server metadata.
export const dynamic = "force-dynamic";
export const GET = async () => oauthJson(authorizationServerMetadata());
export const OPTIONS = async () => preflight();
