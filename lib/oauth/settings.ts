// The authorization server's names and numbers: one issuer (the site), one protected resource
// (the MCP endpoint), one scope, and how long codes and tokens live.
import { config } from "../config/env.mjs";

/** The only scope: act as one of the person's agents (list and call their installed skills). */
export const SCOPE = "skills";
export const CODE_TTL_MS = 5 * 60_000;
export const ACCESS_TOKEN_TTL_S = 3_600;
export const REFRESH_TOKEN_TTL_MS = 30 * 24 * 3_600_000;

export const ACCESS_TOKEN_PREFIX = "ovo_";
export const REFRESH_TOKEN_PREFIX = "ovr_";
export const CODE_PREFIX = "ovac_";
export const CLIENT_ID_PREFIX = "ovc_";
export const CLIENT_SECRET_PREFIX = "ovcs_";

/** The site's origin, without a trailing slash: the OAuth issuer. */
export const issuer = () => config().APP_URL.replace(/\/+$/, "");
/** The MCP endpoint: the resource (RFC 8707 / RFC 9728) every token is bound to. */
export const mcpResource = () => `${issuer()}/api/mcp`;
export const resourceMetadataUrl = () => `${issuer()}/.well-known/oauth-protected-resource/api/mcp`;
