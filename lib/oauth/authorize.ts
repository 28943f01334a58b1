// The authorization endpoint (RFC 6749 §4.1 with PKCE S256 required): checking a request, and the
// person's answer on the consent page. The person picks one of their agents or creates one; the
// one-time code (kept as sha256) then stands for exactly that agent. A request whose client or
// redirect URI cannot be trusted is never redirected anywhere: the page shows the problem instead.
import "server-only";
import { createHash, createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import { createAgent } from "../agents";
import { config } from "../config/env.mjs";
import { db } from "../db";
import { AppError } from "../errors";
import { findClient, type RegisteredClient } from "./clients";
import { PKCE_VALUE } from "./pkce";
import { matchRedirectUri } from "./redirect-uri";
import { CODE_PREFIX, CODE_TTL_MS, issuer, mcpResource, SCOPE } from "./settings";
import { recordAudit } from "../audit";

export type AuthorizationRequest = {
  client: RegisteredClient;
  redirectUri: string;
  state?: string;
  codeChallenge: string;
  scope: string;
  resource: string;
};

export type ParsedAuthorization =
  | { kind: "ok"; request: AuthorizationRequest }
  | { kind: "redirect"; url: string }
  | { kind: "fatal"; message: string };

/** The query parameters of an authorization request, as the consent form carries them along. */
export const AUTHORIZATION_PARAMS = [
  "response_type",
  "client_id",
  "redirect_uri",
  "state",
  "scope",
  "code_challenge",
  "code_challenge_method",
  "resource",
] as const;

function single(params: URLSearchParams, name: string): string | undefined | null {
  const all = params.getAll(name);
  if (all.length > 1) return null;
  return all[0] || undefined;
}

export function errorRedirect(redirectUri: string, error: string, description: string, state?: string): string {
  const url = new URL(redirectUri);
  url.searchParams.set("error", error);
  url.searchParams.set("error_description", description);
  if (state) url.searchParams.set("state", state);
  url.searchParams.set("iss", issuer());
  return url.toString();
}

export async function parseAuthorizationRequest(params: URLSearchParams): Promise<ParsedAuthorization> {
  const clientId = single(params, "client_id");
  if (!clientId) return { kind: "fatal", message: "This sign-in link names no client (client_id), or names it twice." };
  const client = await findClient(clientId.slice(0, 100));
  if (!client) {
    return { kind: "fatal", message: "The app that sent you here is not registered with OpenVibe Skills. Start again from the app." };
  }
  const asked = single(params, "redirect_uri");
  if (asked === null) return { kind: "fatal", message: "This sign-in link names its return address twice." };
  const redirectUri = asked ? matchRedirectUri(asked, client.redirectUris) : client.redirectUris.length === 1 ? client.redirectUris[0]! : null;
  if (!redirectUri) {
    return { kind: "fatal", message: "This sign-in link would return to an address the app did not register, so it is refused." };
  }
  const state = single(params, "state");
  const fail = (error: string, description: string): ParsedAuthorization => ({
    kind: "redirect",
    url: errorRedirect(redirectUri, error, description, state ?? undefined),
  });
  if (state === null || (state && state.length > 1_000)) return fail("invalid_request", "state is repeated or too long.");
  for (const name of AUTHORIZATION_PARAMS) if (single(params, name) === null) return fail("invalid_request", `${name} is repeated.`);
  if (single(params, "response_type") !== "code") return fail("unsupported_response_type", "Only response_type=code is supported.");
  const challenge = single(params, "code_challenge");
  if (!challenge || single(params, "code_challenge_method") !== "S256" || !PKCE_VALUE.test(challenge)) {
    return fail("invalid_request", "PKCE is required: send code_challenge with code_challenge_method=S256.");
  }
  const scopes = (single(params, "scope") ?? SCOPE).split(" ").filter(Boolean);
  if (scopes.some((s) => s !== SCOPE)) return fail("invalid_scope", `The only scope is "${SCOPE}".`);
  const resource = single(params, "resource");
  if (resource && !sameResource(resource)) return fail("invalid_target", `Tokens here are for ${mcpResource()} only.`);
  return {
    kind: "ok",
    request: { client, redirectUri, ...(state ? { state } : {}), codeChallenge: challenge, scope: SCOPE, resource: mcpResource() },
  };
}

export const sameResource = (r: string) => r.replace(/\/+$/, "") === mcpResource();

/** The fields the consent form posts back, so the decision re-checks the very same request. */
export function authorizationFields(r: AuthorizationRequest): Record<string, string> {
  return {
    response_type: "code",
    client_id: r.client.id,
    redirect_uri: r.redirectUri,
    ...(r.state ? { state: r.state } : {}),
    scope: r.scope,
    code_challenge: r.codeChallenge,
    code_challenge_method: "S256",
    resource: r.resource,
  };
}

// The consent form's own token: bound to the person and the request, so another site cannot post
// a decision for them (on top of the same-origin check and the session cookie's SameSite).
const CONSENT_TOKEN_TTL_MS = 15 * 60_000;

function consentMac(userId: string, r: AuthorizationRequest, issuedAt: number): string {
  return createHmac("sha256", config().AUTH_SECRET)
    .update(["oauth-consent", userId, r.client.id, r.redirectUri, r.codeChallenge, r.state ?? "", issuedAt].join("\n"))
    .digest("base64url");
}

export function consentToken(userId: string, r: AuthorizationRequest, now = Date.now()): string {
  return `${now}.${consentMac(userId, r, now)}`;
}

export function checkConsentToken(token: string, userId: string, r: AuthorizationRequest, now = Date.now()): boolean {
  const [at, mac] = token.split(".");
  const issuedAt = Number(at);
  if (!mac || !Number.isSafeInteger(issuedAt) || now - issuedAt > CONSENT_TOKEN_TTL_MS || issuedAt > now + 60_000) return false;
  const want = Buffer.from(consentMac(userId, r, issuedAt));
  const got = Buffer.from(mac);
  return want.length === got.length && timingSafeEqual(want, got);
}

export type AgentChoice = { agentId: string } | { newAgentName: string };

/** "Allow": a one-time code for the chosen (or new) agent, and where to send the browser with it. */
export async function approveAuthorization(userId: string, r: AuthorizationRequest, choice: AgentChoice): Promise<{ redirectTo: string; agentId: string }> {
  let agentId: string;
  if ("agentId" in choice) {
    const agent = await db.agent.findFirst({ where: { id: choice.agentId, userId, revokedAt: null }, select: { id: true } });
    if (!agent) throw new AppError("agent.not_found", "That agent was not found (or it was revoked): choose another one.");
    agentId = agent.id;
  } else {
    // Its own token is never shown: this agent is reached through the app's OAuth tokens.
    agentId = (await createAgent(userId, { name: choice.newAgentName })).agent.id;
  }
  const code = CODE_PREFIX + randomBytes(32).toString("base64url");
  await db.oAuthCode.create({
    data: {
      codeHash: createHash("sha256").update(code).digest("hex"),
      clientId: r.client.id,
      userId,
      agentId,
      redirectUri: r.redirectUri,
      codeChallenge: r.codeChallenge,
      scope: r.scope,
      resource: r.resource,
      expiresAt: new Date(Date.now() + CODE_TTL_MS),
    },
  });
  await recordAudit(db, {
      userId,
      actor: `user:${userId}`,
      action: "oauth.authorized",
      subjectType: "agent",
      subjectId: agentId,
      data: { client_id: r.client.id, client_name: r.client.name },
    });
  const url = new URL(r.redirectUri);
  url.searchParams.set("code", code);
  if (r.state) url.searchParams.set("state", r.state);
  url.searchParams.set("iss", issuer());
  return { redirectTo: url.toString(), agentId };
}

export function denyAuthorization(r: AuthorizationRequest): string {
  return errorRedirect(r.redirectUri, "access_denied", "The person did not allow this app to act as one of their agents.", r.state);
}
