import { oauthJson, preflight, protectedResourceMetadata } from "@/lib/oauth";

// RFC 9728 §3.1: the metadata of the resource at /api/mcp, where its 401 points.
export const dynamic = "force-dynamic";
export const GET = async () => oauthJson(protectedResourceMetadata());
export const OPTIONS = async () => preflight();
