// MCP authorization with a client that has no pasted token: the SDK client's own OAuth flow over
// real HTTP (protected-resource metadata from the 401, authorization server metadata, dynamic
// registration, PKCE S256), the person's consent (choosing or creating the agent) posted with
// their session, the code exchange, and tokens that act as that agent until it is revoked.
import { createHash } from "node:crypto";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { UnauthorizedError, type OAuthClientProvider } from "@modelcontextprotocol/sdk/client/auth.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { OAuthClientInformationMixed, OAuthClientMetadata, OAuthTokens } from "@modelcontextprotocol/sdk/shared/auth.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { seedPerson, setupMcpWorld, type McpWorld } from "../helpers/mcp-harness";

let world: McpWorld;
let person: { id: string };
let cookie: string;
const REDIRECT = "http://127.0.0.1:9/callback";

class TestProvider implements OAuthClientProvider {
  client?: OAuthClientInformationMixed;
  saved?: OAuthTokens;
  verifier = "";
  authorizationUrl?: URL;
  get redirectUrl() {
    return REDIRECT;
  }
  get clientMetadata(): OAuthClientMetadata {
    return {
      client_name: "Integration MCP client",
      redirect_uris: [REDIRECT],
      grant_types: ["authorization_code", "refresh_token"],
      response_types: ["code"],
      token_endpoint_auth_method: "none",
    };
  }
  clientInformation() {
    return this.client;
  }
  saveClientInformation(info: OAuthClientInformationMixed) {
    this.client = info;
  }
  tokens() {
    return this.saved;
  }
  saveTokens(tokens: OAuthTokens) {
    this.saved = tokens;
  }
  redirectToAuthorization(url: URL) {
    this.authorizationUrl = url;
  }
  saveCodeVerifier(v: string) {
    this.verifier = v;
  }
  codeVerifier() {
    return this.verifier;
  }
}

const mcpUrl = () => new URL(`${world.appUrl}/api/mcp`);

/** The consent page's form, as the person's browser posts it (fields, the form's token, choice). */
async function consent(authorizationUrl: URL, choice: Record<string, string>, overrides: Record<string, string> = {}) {
  const { parseAuthorizationRequest, authorizationFields, consentToken } = await import("../../lib/oauth");
  const parsed = await parseAuthorizationRequest(authorizationUrl.searchParams);
  if (parsed.kind !== "ok") throw new Error(`authorization request refused: ${JSON.stringify(parsed)}`);
  const form = new URLSearchParams({
    ...authorizationFields(parsed.request),
    consent_token: consentToken(person.id, parsed.request),
    decision: "allow",
    ...choice,
    ...overrides,
  });
  return fetch(`${world.appUrl}/oauth/consent`, {
    method: "POST",
    redirect: "manual",
    headers: { cookie, origin: world.appUrl, "content-type": "application/x-www-form-urlencoded" },
    body: form,
  });
}

/** The whole flow with the SDK: 401 → discovery → registration → consent → code → tokens. */
async function signIn(provider: TestProvider, choice: Record<string, string>) {
  const first = new Client({ name: "oauth-test", version: "1.0.0" });
  const transport = new StreamableHTTPClientTransport(mcpUrl(), { authProvider: provider });
  await expect(first.connect(transport)).rejects.toBeInstanceOf(UnauthorizedError);
  const answer = await consent(provider.authorizationUrl!, choice);
  expect(answer.status).toBe(303);
  const back = new URL(answer.headers.get("location")!);
  expect(`${back.origin}${back.pathname}`).toBe(REDIRECT);
  expect(back.searchParams.get("state")).toBe(provider.authorizationUrl!.searchParams.get("state"));
  expect(back.searchParams.get("iss")).toBe(world.appUrl);
  await transport.finishAuth(back.searchParams.get("code")!);
  const client = new Client({ name: "oauth-test", version: "1.0.0" });
  await client.connect(new StreamableHTTPClientTransport(mcpUrl(), { authProvider: provider }));
  return client;
}

const form = (fields: Record<string, string>) => ({
  method: "POST",
  headers: { "content-type": "application/x-www-form-urlencoded" },
  body: new URLSearchParams(fields),
});

beforeAll(async () => {
  world = await setupMcpWorld("mcpoauth");
  const seeded = await seedPerson("oauth@example.test");
  person = seeded.person;
  await seeded.publish("scripts/demo/skills/text-tools");
  const { sessionToken } = await import("../helpers/session-cookie");
  cookie = `next-auth.session-token=${await sessionToken(person.id, "integration-secret-".padEnd(40, "x"))}`;
}, 240_000);

afterAll(async () => {
  await world?.close();
});

describe("MCP OAuth with dynamic registration, PKCE and consent", () => {
  it("a client added by URL alone signs in, the person creates an agent for it, and it acts as that agent", async () => {
    const provider = new TestProvider();
    const client = await signIn(provider, { agent: "new", new_agent_name: "Claude via OAuth" });
    const url = provider.authorizationUrl!;
    expect(url.origin + url.pathname).toBe(`${world.appUrl}/oauth/authorize`);
    expect(url.searchParams.get("code_challenge_method")).toBe("S256");
    expect(url.searchParams.get("resource")).toBe(`${world.appUrl}/api/mcp`);
    expect(provider.client?.client_id).toMatch(/^ovc_/);
    expect(provider.saved).toMatchObject({ token_type: expect.stringMatching(/bearer/i), scope: "skills" });
    expect(provider.saved!.access_token).toMatch(/^ovo_/);
    expect(provider.saved!.refresh_token).toMatch(/^ovr_/);

    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toContain("text-tools__slugify");
    const agent = await world.env.db.agent.findFirstOrThrow({ where: { userId: person.id, name: "Claude via OAuth" } });
    const call = (await client.callTool({ name: "text-tools__slugify", arguments: { text: "as the agent" } })) as CallToolResult;
    const stepId = (call._meta?.["openvibe/run"] as { step_id: string }).step_id;
    expect((await world.env.db.step.findUniqueOrThrow({ where: { id: stepId } })).agentId).toBe(agent.id);

    // Tokens are kept as hashes only.
    const hash = createHash("sha256").update(provider.saved!.access_token).digest("hex");
    const row = await world.env.db.oAuthToken.findUniqueOrThrow({ where: { tokenHash: hash } });
    expect(row).toMatchObject({ agentId: agent.id, kind: "access", resource: `${world.appUrl}/api/mcp` });
    expect(JSON.stringify(await world.env.db.oAuthToken.findMany())).not.toContain(provider.saved!.access_token);

    // Revoking the agent stops its OAuth tokens at once.
    const { revokeAgent } = await import("../../lib/agents");
    await revokeAgent(person.id, agent.id);
    const res = await fetch(mcpUrl(), {
      method: "POST",
      headers: { authorization: `Bearer ${provider.saved!.access_token}`, "content-type": "application/json", accept: "application/json, text/event-stream" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "x", version: "1" } } }),
    });
    expect(res.status).toBe(401);
    expect(res.headers.get("www-authenticate")).toMatch(/error="invalid_token"/);
    const refreshed = await fetch(`${world.appUrl}/oauth/token`, form({ grant_type: "refresh_token", refresh_token: provider.saved!.refresh_token!, client_id: provider.client!.client_id }));
    expect(refreshed.status).toBe(400);
    expect((await refreshed.json()).error).toBe("invalid_grant");
  });

  it("the person can pick an existing agent; refresh tokens rotate and a replayed one revokes the sign-in", async () => {
    const { createAgent } = await import("../../lib/agents");
    const existing = await createAgent(person.id, { name: "Existing agent" });
    const provider = new TestProvider();
    const client = await signIn(provider, { agent: existing.agent.id });
    const call = (await client.callTool({ name: "text-tools__slugify", arguments: { text: "existing" } })) as CallToolResult;
    const stepId = (call._meta?.["openvibe/run"] as { step_id: string }).step_id;
    expect((await world.env.db.step.findUniqueOrThrow({ where: { id: stepId } })).agentId).toBe(existing.agent.id);

    const clientId = provider.client!.client_id;
    const old = provider.saved!;
    const rotated = await fetch(`${world.appUrl}/oauth/token`, form({ grant_type: "refresh_token", refresh_token: old.refresh_token!, client_id: clientId }));
    expect(rotated.status).toBe(200);
    const fresh = (await rotated.json()) as OAuthTokens;
    expect(fresh.refresh_token).not.toBe(old.refresh_token);
    const replay = await fetch(`${world.appUrl}/oauth/token`, form({ grant_type: "refresh_token", refresh_token: old.refresh_token!, client_id: clientId }));
    expect((await replay.json()).error).toBe("invalid_grant");
    const after = await fetch(mcpUrl(), {
      method: "POST",
      headers: { authorization: `Bearer ${fresh.access_token}`, "content-type": "application/json", accept: "application/json, text/event-stream" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "ping" }),
    });
    expect(after.status).toBe(401);
  });

  it("refuses a wrong PKCE verifier, a reused code, a forged consent and a cross-site decision", async () => {
    const provider = new TestProvider();
    const transport = new StreamableHTTPClientTransport(mcpUrl(), { authProvider: provider });
    await expect(new Client({ name: "x", version: "1" }).connect(transport)).rejects.toBeInstanceOf(UnauthorizedError);
    const url = provider.authorizationUrl!;

    const forged = await consent(url, { agent: "new" }, { consent_token: `${Date.now()}.forged` });
    expect(forged.status).toBe(303);
    expect(forged.headers.get("location")).toMatch(/^\/oauth\/authorize\?/);
    const crossSite = await fetch(`${world.appUrl}/oauth/consent`, {
      method: "POST",
      redirect: "manual",
      headers: { cookie, origin: "https://evil.example", "content-type": "application/x-www-form-urlencoded" },
      body: "decision=allow",
    });
    expect(crossSite.status).toBe(403);

    const answer = await consent(url, { agent: "new", new_agent_name: "PKCE test" });
    const code = new URL(answer.headers.get("location")!).searchParams.get("code")!;
    const exchange = (verifier: string) =>
      fetch(`${world.appUrl}/oauth/token`, form({ grant_type: "authorization_code", code, code_verifier: verifier, redirect_uri: REDIRECT, client_id: provider.client!.client_id }));
    const wrong = await exchange("w".repeat(43));
    expect(wrong.status).toBe(400);
    expect((await wrong.json()).error).toBe("invalid_grant");
    // The code was spent by that attempt: even the right verifier cannot use it again.
    const reused = await exchange(provider.verifier);
    expect((await reused.json()).error).toBe("invalid_grant");
  });

  it("checks registrations and authorization requests", async () => {
    const register = (body: unknown) =>
      fetch(`${world.appUrl}/oauth/register`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
    const http = await register({ redirect_uris: ["http://evil.example/cb"], token_endpoint_auth_method: "none" });
    expect(http.status).toBe(400);
    expect((await http.json()).error).toBe("invalid_redirect_uri");
    expect((await register({ redirect_uris: ["javascript:alert(1)"] })).status).toBe(400);
    const confidential = await register({ redirect_uris: ["https://app.example/cb", "cursor://anysphere.cursor-retrieval/oauth/callback"] });
    expect(confidential.status).toBe(201);
    const registered = await confidential.json();
    expect(registered).toMatchObject({ token_endpoint_auth_method: "client_secret_basic", client_secret: expect.stringMatching(/^ovcs_/) });
    const row = await world.env.db.oAuthClient.findUniqueOrThrow({ where: { id: registered.client_id } });
    expect(row.secretHash).toBe(createHash("sha256").update(registered.client_secret).digest("hex"));
    // A confidential client must authenticate at the token endpoint.
    const noSecret = await fetch(`${world.appUrl}/oauth/token`, form({ grant_type: "refresh_token", refresh_token: "ovr_x", client_id: registered.client_id }));
    expect(noSecret.status).toBe(401);
    expect((await noSecret.json()).error).toBe("invalid_client");

    const { parseAuthorizationRequest } = await import("../../lib/oauth");
    const base = { response_type: "code", client_id: registered.client_id, redirect_uri: "https://app.example/cb", code_challenge: "c".repeat(43), code_challenge_method: "S256" };
    expect((await parseAuthorizationRequest(new URLSearchParams(base))).kind).toBe("ok");
    const noPkce = await parseAuthorizationRequest(new URLSearchParams({ ...base, code_challenge_method: "plain" }));
    expect(noPkce).toMatchObject({ kind: "redirect", url: expect.stringContaining("error=invalid_request") });
    const elsewhere = await parseAuthorizationRequest(new URLSearchParams({ ...base, redirect_uri: "https://evil.example/cb" }));
    expect(elsewhere.kind).toBe("fatal");
    const wrongResource = await parseAuthorizationRequest(new URLSearchParams({ ...base, resource: "https://other.example/mcp" }));
    expect(wrongResource).toMatchObject({ kind: "redirect", url: expect.stringContaining("error=invalid_target") });

    const asMeta = await (await fetch(`${world.appUrl}/.well-known/oauth-authorization-server`)).json();
    expect(asMeta).toMatchObject({
      issuer: world.appUrl,
      registration_endpoint: `${world.appUrl}/oauth/register`,
      code_challenge_methods_supported: ["S256"],
    });
  });
});
