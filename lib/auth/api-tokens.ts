// Personal API tokens (`ovp_…`) for the CLI and HTTP API. The secret is shown once; only its
// sha256 is stored, so a database leak does not leak usable tokens.
import "server-only";
import { createHash, randomBytes } from "node:crypto";
import { AppError } from "../errors";
import { db } from "../db";
import type { Principal } from "./principal";
import { MAX_TOKEN_DAYS } from "./scopes";
import { recordAudit } from "../audit";
import { LEGACY_SCOPES, normalizeScopes, type ApiTokenScope } from "./scopes";

export const API_TOKEN_PREFIX = "ovp_";
const SECRET_PATTERN = /^ovp_[A-Za-z0-9_-]{43}$/;
export const MAX_ACTIVE_TOKENS = 50;
export { MAX_TOKEN_DAYS };
// A token used in a burst should not cost a database write per request.
const LAST_USED_RESOLUTION_MS = 60_000;

export type ApiTokenView = {
  id: string;
  name: string;
  prefix: string;
  scopes: ApiTokenScope[];
  createdAt: Date;
  expiresAt: Date | null;
  lastUsedAt: Date | null;
  revokedAt: Date | null;
};

const viewSelect = {
  id: true,
  name: true,
  prefix: true,
  scopes: true,
  createdAt: true,
  expiresAt: true,
  lastUsedAt: true,
  revokedAt: true,
} as const;

type StoredToken = Omit<ApiTokenView, "scopes"> & { scopes: string[] };

function toView(token: StoredToken): ApiTokenView {
  return { ...token, scopes: normalizeScopes(token.scopes) };
}

export type NewApiToken = {
  /** What the token may do; none named → what tokens could always do (read the account, publish). */
  scopes?: readonly ApiTokenScope[];
  /** Days until it stops working (1-366); null or absent → it does not expire. */
  expiresInDays?: number | null;
};

export function hashApiToken(secret: string): string {
  return createHash("sha256").update(secret).digest("hex");
}

/** Creates a token; the returned `secret` is the only time it exists outside the caller. */
export async function createApiToken(
  userId: string,
  name: string,
  options: NewApiToken = {},
): Promise<{ token: ApiTokenView; secret: string }> {
  const cleanName = name.trim();
  if (!cleanName || cleanName.length > 64) {
    throw new AppError("request.invalid", "A token name is 1-64 characters.", {
      details: [{ path: "/name", message: "must be 1-64 characters" }],
    });
  }
  const scopes = normalizeScopes(options.scopes ?? LEGACY_SCOPES);
  if (!scopes.length) {
    throw new AppError("request.invalid", "Pick at least one scope for the token.", {
      details: [{ path: "/scopes", message: "must name at least one scope" }],
    });
  }
  const days = options.expiresInDays ?? null;
  if (days !== null && (!Number.isInteger(days) || days < 1 || days > MAX_TOKEN_DAYS)) {
    throw new AppError("request.invalid", `A token expires in 1-${MAX_TOKEN_DAYS} days, or never.`, {
      details: [{ path: "/expires_in_days", message: `must be a whole number of days, 1-${MAX_TOKEN_DAYS}` }],
    });
  }
  const expiresAt = days === null ? null : new Date(Date.now() + days * 86_400_000);
  const active = await db.apiToken.count({ where: { userId, revokedAt: null } });
  if (active >= MAX_ACTIVE_TOKENS) {
    throw new AppError("token.limit_reached", `You have ${MAX_ACTIVE_TOKENS} active tokens: revoke one you no longer use first.`);
  }
  const secret = API_TOKEN_PREFIX + randomBytes(32).toString("base64url");
  const prefix = secret.slice(API_TOKEN_PREFIX.length, API_TOKEN_PREFIX.length + 8);
  const token = await db.$transaction(async (tx) => {
    const created = await tx.apiToken.create({
      data: { userId, name: cleanName, prefix, tokenHash: hashApiToken(secret), scopes, expiresAt },
      select: viewSelect,
    });
    await recordAudit(tx, {
        userId,
        actor: `user:${userId}`,
        action: "token.created",
        subjectType: "api_token",
        subjectId: created.id,
        data: { name: created.name, prefix, scopes, expiresAt: expiresAt?.toISOString() ?? null },
      });
    return created;
  });
  return { token: toView(token), secret };
}

export async function listApiTokens(userId: string): Promise<ApiTokenView[]> {
  const tokens = await db.apiToken.findMany({
    where: { userId },
    orderBy: [{ revokedAt: { sort: "desc", nulls: "first" } }, { createdAt: "desc" }],
    select: viewSelect,
    take: 200,
  });
  return tokens.map(toView);
}

/** Revokes one of the person's tokens (again is a no-op); anyone else's or unknown → 404. */
export async function revokeApiToken(userId: string, id: string): Promise<ApiTokenView> {
  return db.$transaction(async (tx) => {
    const token = await tx.apiToken.findFirst({ where: { id, userId }, select: viewSelect });
    if (!token) throw new AppError("token.not_found", "That token was not found.");
    if (token.revokedAt) return toView(token);
    const revoked = await tx.apiToken.update({ where: { id }, data: { revokedAt: new Date() }, select: viewSelect });
    await recordAudit(tx, {
        userId,
        actor: `user:${userId}`,
        action: "token.revoked",
        subjectType: "api_token",
        subjectId: id,
        data: { name: token.name, prefix: token.prefix },
      });
    return toView(revoked);
  });
}

/** Who a bearer secret belongs to, or `auth.token_invalid` / `auth.token_revoked` / `auth.token_expired` (401). */
export async function verifyApiToken(secret: string): Promise<Principal> {
  if (!SECRET_PATTERN.test(secret)) {
    throw new AppError("auth.token_invalid", "The API token is not valid: create a new one under Dashboard → Tokens.");
  }
  const token = await db.apiToken.findUnique({
    where: { tokenHash: hashApiToken(secret) },
    select: {
      id: true,
      revokedAt: true,
      expiresAt: true,
      scopes: true,
      lastUsedAt: true,
      user: { select: { id: true, email: true, name: true, handle: true } },
    },
  });
  if (!token) {
    throw new AppError("auth.token_invalid", "The API token is not valid: create a new one under Dashboard → Tokens.");
  }
  if (token.revokedAt) {
    throw new AppError("auth.token_revoked", "This API token was revoked: create a new one under Dashboard → Tokens.");
  }
  const now = Date.now();
  if (token.expiresAt && token.expiresAt.getTime() <= now) {
    throw new AppError("auth.token_expired", "This API token has expired: create a new one under Dashboard → Tokens.");
  }
  if (!token.lastUsedAt || now - token.lastUsedAt.getTime() > LAST_USED_RESOLUTION_MS) {
    await db.apiToken.update({ where: { id: token.id }, data: { lastUsedAt: new Date(now) } });
  }
  const { user } = token;
  return {
    userId: user.id,
    email: user.email,
    name: user.name,
    handle: user.handle,
    via: "token",
    tokenId: token.id,
    scopes: normalizeScopes(token.scopes),
  };
}
