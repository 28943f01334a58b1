// Who is calling /api/mcp: an agent, by its own token (`ova_…`, lib/agents) or by an OAuth access
// token issued for it (`ovo_…`, lib/oauth). Both give the same AgentPrincipal. Anything else is a
// 401 whose WWW-Authenticate points at the protected-resource metadata, where OAuth clients start.
import "server-only";
import { verifyAgentToken, type AgentPrincipal } from "../agents";
import { AppError, errorBody } from "../errors";
import { isOAuthAccessToken, resourceMetadataUrl, SCOPE, verifyAccessToken } from "../oauth";

export async function mcpPrincipal(req: Request): Promise<AgentPrincipal> {
  const header = req.headers.get("authorization");
  if (!header) {
    throw new AppError("auth.required", "Sign in with OAuth, or send an agent token as `Authorization: Bearer ova_…`.");
  }
  const match = /^Bearer\s+(\S{1,200})\s*$/i.exec(header);
  if (!match?.[1]) throw new AppError("auth.token_invalid", "Send the token as `Authorization: Bearer <token>`.");
  return isOAuthAccessToken(match[1]) ? verifyAccessToken(match[1]) : verifyAgentToken(match[1]);
}

/** RFC 6750 §3 + RFC 9728 §5.1: how an MCP client learns where to get a token. */
export function unauthorized(err: AppError, cors: Record<string, string>): Response {
  const params = [`realm="OpenVibe Skills"`, `resource_metadata="${resourceMetadataUrl()}"`, `scope="${SCOPE}"`];
  if (err.code !== "auth.required") {
    params.push(`error="invalid_token"`, `error_description="${err.message.replace(/["\\]/g, "")}"`);
  }
  return new Response(JSON.stringify(errorBody(err)), {
    status: 401,
    headers: {
      "content-type": "application/json; charset=utf-8",
      "cache-control": "no-store",
      "www-authenticate": `Bearer ${params.join(", ")}`,
      ...cors,
    },
  });
}
