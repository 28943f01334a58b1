// The token endpoint (authorization_code with PKCE, refresh_token with rotation), revocation
// (RFC 7009) and the check /api/mcp makes on every request. Tokens are random, kept as sha256,
// bound to the MCP endpoint (the resource) and to one agent: they act as that agent exactly as its
// own token does, and stop the moment the person revokes it. A code or refresh token used twice
// revokes everything issued from the same consent.
import "server-only";
import { createHash, randomBytes } from "node:crypto";
import type { AgentPrincipal } from "../agents";
import { db } from "../db";
import { AppError } from "../errors";
import { sameResource } from "./authorize";
import { authenticateClient, type RegisteredClient } from "./clients";
import { param } from "./http";
import { verifierMatches } from "./pkce";
import {
  ACCESS_TOKEN_PREFIX,
  ACCESS_TOKEN_TTL_S,
  mcpResource,
  REFRESH_TOKEN_PREFIX,
  REFRESH_TOKEN_TTL_MS,
} from "./settings";

const sha256 = (s: string) => createHash("sha256").update(s).digest("hex");
const TOKEN_PATTERN = /^ov[or]_[A-Za-z0-9_-]{43}$/;
const invalidGrant = (why: string) => new AppError("oauth.invalid_grant", why);

export type TokenResponse = {
  access_token: string;
  token_type: "Bearer";
  expires_in: number;
  refresh_token?: string;
  scope: string;
};

async function issue(
  grant: { familyId: string; clientId: string; userId: string; agentId: string; scope: string; resource: string },
  withRefresh: boolean,
): Promise<TokenResponse> {
  const access = ACCESS_TOKEN_PREFIX + randomBytes(32).toString("base64url");
  const refresh = withRefresh ? REFRESH_TOKEN_PREFIX + randomBytes(32).toString("base64url") : null;
  const now = Date.now();
  await db.oAuthToken.createMany({
    data: [
      { ...grant, kind: "access", tokenHash: sha256(access), expiresAt: new Date(now + ACCESS_TOKEN_TTL_S * 1000) },
      ...(refresh
        ? [{ ...grant, kind: "refresh" as const, tokenHash: sha256(refresh), expiresAt: new Date(now + REFRESH_TOKEN_TTL_MS) }]
        : []),
    ],
  });
  return {
    access_token: access,
    token_type: "Bearer",
    expires_in: ACCESS_TOKEN_TTL_S,
    ...(refresh ? { refresh_token: refresh } : {}),
    scope: grant.scope,
  };
}

const revokeFamily = (familyId: string) =>
  db.oAuthToken.updateMany({ where: { familyId, revokedAt: null }, data: { revokedAt: new Date() } });

async function agentIsActive(agentId: string) {
  const agent = await db.agent.findUnique({ where: { id: agentId }, select: { revokedAt: true } });
  return agent !== null && agent.revokedAt === null;
}

/** POST /oauth/token. */
export async function exchangeToken(form: URLSearchParams, authorization: string | null): Promise<TokenResponse> {
  const grantType = param(form, "grant_type", 64);
  const client = await authenticateClient(form, authorization);
  if (grantType === "authorization_code") return exchangeCode(client, form);
  if (grantType === "refresh_token") {
    if (!client.grantTypes.includes("refresh_token")) {
      throw new AppError("oauth.unauthorized_client", "This client did not register for refresh tokens.");
    }
    return refresh(client, form);
  }
  throw new AppError("oauth.unsupported_grant_type", "grant_type is authorization_code or refresh_token.");
}

async function exchangeCode(client: RegisteredClient, form: URLSearchParams): Promise<TokenResponse> {
  const code = param(form, "code", 200);
  const verifier = param(form, "code_verifier", 200);
  const redirectUri = param(form, "redirect_uri");
  const resource = param(form, "resource");
  if (!code || !verifier) throw new AppError("oauth.invalid_request", "Send code and code_verifier (PKCE).");
  const row = await db.oAuthCode.findUnique({ where: { codeHash: sha256(code) } });
  if (!row || row.clientId !== client.id) throw invalidGrant("That authorization code is not valid.");
  // Claim it exactly once; a second use means it leaked, so what it bought is revoked too.
  const claimed = await db.oAuthCode.updateMany({
    where: { id: row.id, usedAt: null, expiresAt: { gt: new Date() } },
    data: { usedAt: new Date() },
  });
  if (claimed.count !== 1) {
    if (row.usedAt) await revokeFamily(row.id);
    throw invalidGrant("That authorization code was already used or has expired: sign in again.");
  }
  if (redirectUri && redirectUri !== row.redirectUri) {
    throw invalidGrant("redirect_uri is not the one the code was issued for.");
  }
  if (!verifierMatches(verifier, row.codeChallenge)) throw invalidGrant("code_verifier does not match the code_challenge (PKCE).");
  if (resource && !sameResource(resource)) throw new AppError("oauth.invalid_target", `Tokens here are for ${mcpResource()} only.`);
  if (!(await agentIsActive(row.agentId))) throw invalidGrant("The agent this was for has been revoked.");
  return issue(
    { familyId: row.id, clientId: client.id, userId: row.userId, agentId: row.agentId, scope: row.scope, resource: row.resource },
    client.grantTypes.includes("refresh_token"),
  );
}

async function refresh(client: RegisteredClient, form: URLSearchParams): Promise<TokenResponse> {
  const token = param(form, "refresh_token", 200);
  const resource = param(form, "resource");
  if (!token) throw new AppError("oauth.invalid_request", "Send refresh_token.");
  if (resource && !sameResource(resource)) throw new AppError("oauth.invalid_target", `Tokens here are for ${mcpResource()} only.`);
  const row = await db.oAuthToken.findUnique({ where: { tokenHash: sha256(token) } });
  if (!row || row.kind !== "refresh" || row.clientId !== client.id) throw invalidGrant("That refresh token is not valid.");
  if (row.revokedAt || row.expiresAt <= new Date()) throw invalidGrant("That refresh token was revoked or has expired: sign in again.");
  const rotated = await db.oAuthToken.updateMany({ where: { id: row.id, usedAt: null }, data: { usedAt: new Date() } });
  if (rotated.count !== 1) {
    await revokeFamily(row.familyId);
    throw invalidGrant("That refresh token was already used, so every token from this sign-in is revoked: sign in again.");
  }
  if (!(await agentIsActive(row.agentId))) throw invalidGrant("The agent this was for has been revoked.");
  // The old access tokens of this family stop when their replacement is issued.
  await db.oAuthToken.updateMany({ where: { familyId: row.familyId, kind: "access", revokedAt: null }, data: { revokedAt: new Date() } });
  return issue(
    { familyId: row.familyId, clientId: client.id, userId: row.userId, agentId: row.agentId, scope: row.scope, resource: row.resource },
    true,
  );
}

/** POST /oauth/revoke: revoking a refresh token ends the whole sign-in; unknown tokens are fine. */
export async function revokeToken(form: URLSearchParams, authorization: string | null): Promise<void> {
  const client = await authenticateClient(form, authorization);
  const token = param(form, "token", 200);
  if (!token) throw new AppError("oauth.invalid_request", "Send token.");
  const row = await db.oAuthToken.findUnique({ where: { tokenHash: sha256(token) } });
  if (!row || row.clientId !== client.id) return;
  if (row.kind === "refresh") await revokeFamily(row.familyId);
  else await db.oAuthToken.updateMany({ where: { id: row.id, revokedAt: null }, data: { revokedAt: new Date() } });
}

export const isOAuthAccessToken = (secret: string) => secret.startsWith(ACCESS_TOKEN_PREFIX);

/** The agent an OAuth access token acts as: the same principal its own agent token gives. */
export async function verifyAccessToken(secret: string): Promise<AgentPrincipal> {
  const invalid = new AppError("auth.token_invalid", "That access token is not valid or has expired: sign in again.");
  if (!TOKEN_PATTERN.test(secret) || !isOAuthAccessToken(secret)) throw invalid;
  const row = await db.oAuthToken.findUnique({
    where: { tokenHash: sha256(secret) },
    select: {
      kind: true,
      expiresAt: true,
      revokedAt: true,
      resource: true,
      agent: { select: { id: true, userId: true, projectId: true, name: true, revokedAt: true } },
    },
  });
  if (!row || row.kind !== "access" || row.revokedAt || row.expiresAt <= new Date() || !sameResource(row.resource)) throw invalid;
  if (row.agent.revokedAt) throw new AppError("auth.token_revoked", "That agent was revoked by its person.");
  return { agentId: row.agent.id, userId: row.agent.userId, projectId: row.agent.projectId, name: row.agent.name };
}

/** The apps acting as one agent through OAuth (for the agents page). */
export async function agentConnections(userId: string) {
  const rows = await db.oAuthToken.findMany({
    where: { userId, kind: "refresh", revokedAt: null, usedAt: null, expiresAt: { gt: new Date() } },
    select: { agentId: true, createdAt: true, client: { select: { name: true } } },
    orderBy: { createdAt: "desc" },
    take: 200,
  });
  return rows.map((r) => ({ agentId: r.agentId, clientName: r.client.name, since: r.createdAt }));
}
