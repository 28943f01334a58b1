// The discovery documents an MCP client reads before it signs in: the protected resource's
// metadata (RFC 9728), pointing at this site as the authorization server, and the authorization
// server's metadata (RFC 8414).
import { issuer, mcpResource, SCOPE } from "./settings";

export function protectedResourceMetadata() {
  return {
    resource: mcpResource(),
    authorization_servers: [issuer()],
    bearer_methods_supported: ["header"],
    scopes_supported: [SCOPE],
    resource_name: "OpenVibe Skills",
    resource_documentation: `${issuer()}/dashboard/agents`,
  };
}

export function authorizationServerMetadata() {
  const base = issuer();
  const authMethods = ["none", "client_secret_post", "client_secret_basic"];
  return {
    issuer: base,
    authorization_endpoint: `${base}/oauth/authorize`,
    token_endpoint: `${base}/oauth/token`,
    registration_endpoint: `${base}/oauth/register`,
    revocation_endpoint: `${base}/oauth/revoke`,
    scopes_supported: [SCOPE],
    response_types_supported: ["code"],
    response_modes_supported: ["query"],
    grant_types_supported: ["authorization_code", "refresh_token"],
    code_challenge_methods_supported: ["S256"],
    token_endpoint_auth_methods_supported: authMethods,
    revocation_endpoint_auth_methods_supported: authMethods,
    authorization_response_iss_parameter_supported: true,
    service_documentation: `${base}/dashboard/agents`,
  };
}
