// MCP's OAuth authorization (2025-11-25): this site is both the protected resource (/api/mcp) and
// its authorization server, with dynamic client registration, PKCE S256, a consent page where the
// person picks the agent, and tokens that act as that agent only while it is not revoked.
export { protectedResourceMetadata, authorizationServerMetadata } from "./metadata";
export { registerClient, findClient, type RegisteredClient } from "./clients";
export {
  parseAuthorizationRequest,
  authorizationFields,
  approveAuthorization,
  denyAuthorization,
  consentToken,
  checkConsentToken,
  AUTHORIZATION_PARAMS,
  type AuthorizationRequest,
  type AgentChoice,
} from "./authorize";
export { exchangeToken, revokeToken, verifyAccessToken, isOAuthAccessToken, agentConnections } from "./tokens";
export { oauthRoute, oauthJson, preflight, readForm, readJson, CORS_HEADERS } from "./http";
export { issuer, mcpResource, resourceMetadataUrl, SCOPE } from "./settings";
export { stashAuthorization, takeStashedAuthorization } from "./pending";
export { decideConsent } from "./consent";
