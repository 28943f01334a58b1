// OAuth clients: dynamic registration (RFC 7591), so an MCP client added by URL alone can sign in,
// and client authentication at the token and revocation endpoints. A confidential client's secret
// is shown once in the registration answer and kept as sha256. Registration is open, so it is
// bounded per IP and every field is checked and capped.
import "server-only";
import { createHash, randomBytes, timingSafeEqual } from "node:crypto";
import { z } from "zod";
import { db, Prisma } from "../db";
import { AppError } from "../errors";
import { key, redis } from "../redis";
import { redirectUriProblem } from "./redirect-uri";
import { CLIENT_ID_PREFIX, CLIENT_SECRET_PREFIX, SCOPE } from "./settings";

export const REGISTRATIONS_PER_IP_PER_HOUR = 30;
const AUTH_METHODS = ["none", "client_secret_post", "client_secret_basic"] as const;
export type ClientAuthMethod = (typeof AUTH_METHODS)[number];

const url = z.string().max(2_000).url();
const metadataSchema = z.object({
  redirect_uris: z.array(z.string()).min(1, "needs at least one redirect URI").max(10, "has at most 10 redirect URIs"),
  token_endpoint_auth_method: z.enum(AUTH_METHODS).optional(),
  grant_types: z.array(z.enum(["authorization_code", "refresh_token"])).max(2).optional(),
  response_types: z.array(z.literal("code")).max(1).optional(),
  client_name: z.string().max(100).optional(),
  client_uri: url.optional(),
  logo_uri: url.optional(),
  tos_uri: url.optional(),
  policy_uri: url.optional(),
  scope: z.string().max(200).optional(),
  software_id: z.string().max(200).optional(),
  software_version: z.string().max(100).optional(),
});

export type RegisteredClient = {
  id: string;
  name: string;
  redirectUris: string[];
  tokenEndpointAuthMethod: ClientAuthMethod;
  grantTypes: string[];
};

const sha256 = (s: string) => createHash("sha256").update(s).digest("hex");
const digest = (text: string) => createHash("sha256").update(text).digest("hex").slice(0, 32);
// Control and bidirectional-override characters would let a name pretend to be something else.
const cleanName = (name: string) => name.replace(/[\u0000-\u001f\u007f\u202a-\u202e\u2066-\u2069]/g, "").trim();

async function assertRegistrationAllowed(ip: string) {
  const k = key("ratelimit", "oauth-register", digest(ip));
  const [[, count]] = (await redis().multi().incr(k).expire(k, 3_600, "NX").exec()) as [[unknown, number]];
  if (count > REGISTRATIONS_PER_IP_PER_HOUR) {
    throw new AppError("oauth.slow_down", "Too many client registrations from this address; try again in an hour.");
  }
}

/** POST /oauth/register: the registration answer, with `client_secret` once for a confidential client. */
export async function registerClient(body: unknown, ip: string) {
  const parsed = metadataSchema.safeParse(body);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const field = issue?.path.join(".") || "metadata";
    const code = field.startsWith("redirect_uris") ? "oauth.invalid_redirect_uri" : "oauth.invalid_client_metadata";
    throw new AppError(code, `${field} ${issue?.message ?? "is not valid"}.`);
  }
  const m = parsed.data;
  for (const uri of m.redirect_uris) {
    const problem = redirectUriProblem(uri);
    if (problem) throw new AppError("oauth.invalid_redirect_uri", `The redirect URI ${uri.slice(0, 200)} ${problem}.`);
  }
  if (m.scope && m.scope.split(" ").some((s) => s && s !== SCOPE)) {
    throw new AppError("oauth.invalid_client_metadata", `The only scope is "${SCOPE}".`);
  }
  await assertRegistrationAllowed(ip);

  // RFC 7591's default method is client_secret_basic; MCP clients normally register as public ("none").
  const method: ClientAuthMethod = m.token_endpoint_auth_method ?? "client_secret_basic";
  const grantTypes = m.grant_types?.length ? [...new Set(m.grant_types)] : ["authorization_code", "refresh_token"];
  if (!grantTypes.includes("authorization_code")) {
    throw new AppError("oauth.invalid_client_metadata", "grant_types must include authorization_code.");
  }
  const id = CLIENT_ID_PREFIX + randomBytes(16).toString("base64url");
  const secret = method === "none" ? null : CLIENT_SECRET_PREFIX + randomBytes(32).toString("base64url");
  const name = cleanName(m.client_name ?? "") || "An MCP client";
  const stored = {
    client_name: name,
    redirect_uris: m.redirect_uris,
    token_endpoint_auth_method: method,
    grant_types: grantTypes,
    response_types: ["code"],
    ...(m.client_uri ? { client_uri: m.client_uri } : {}),
    ...(m.logo_uri ? { logo_uri: m.logo_uri } : {}),
    ...(m.tos_uri ? { tos_uri: m.tos_uri } : {}),
    ...(m.policy_uri ? { policy_uri: m.policy_uri } : {}),
    ...(m.software_id ? { software_id: m.software_id } : {}),
    ...(m.software_version ? { software_version: m.software_version } : {}),
    scope: SCOPE,
  };
  const row = await db.oAuthClient.create({
    data: {
      id,
      name,
      redirectUris: m.redirect_uris,
      tokenEndpointAuthMethod: method,
      secretHash: secret ? sha256(secret) : null,
      metadata: stored as Prisma.InputJsonValue,
    },
  });
  return {
    client_id: id,
    client_id_issued_at: Math.floor(row.createdAt.getTime() / 1000),
    ...(secret ? { client_secret: secret, client_secret_expires_at: 0 } : {}),
    ...stored,
  };
}

export async function findClient(clientId: string): Promise<RegisteredClient | null> {
  if (!clientId.startsWith(CLIENT_ID_PREFIX) || clientId.length > 64) return null;
  const row = await db.oAuthClient.findUnique({ where: { id: clientId } });
  if (!row) return null;
  return {
    id: row.id,
    name: row.name,
    redirectUris: row.redirectUris,
    tokenEndpointAuthMethod: row.tokenEndpointAuthMethod as ClientAuthMethod,
    grantTypes: ((row.metadata as { grant_types?: string[] }).grant_types ?? ["authorization_code", "refresh_token"]).slice(),
  };
}

const invalidClient = () => new AppError("oauth.invalid_client", "The client is unknown or its credentials are wrong.");

/**
 * The client a token or revocation request comes from: by HTTP Basic or by form fields, with its
 * secret checked for a confidential client (a public one sends only its id).
 */
export async function authenticateClient(form: URLSearchParams, authorization: string | null): Promise<RegisteredClient> {
  let clientId = form.get("client_id") ?? undefined;
  let secret = form.get("client_secret") ?? undefined;
  let via: ClientAuthMethod = secret ? "client_secret_post" : "none";
  const basic = /^Basic\s+([A-Za-z0-9+/=]+)\s*$/i.exec(authorization ?? "");
  if (basic?.[1]) {
    const decoded = Buffer.from(basic[1], "base64").toString("utf8");
    const colon = decoded.indexOf(":");
    if (colon < 0 || secret) throw invalidClient();
    try {
      // RFC 6749 §2.3.1: both halves are form-encoded before Basic encoding.
      clientId = decodeURIComponent(decoded.slice(0, colon).replace(/\+/g, " "));
      secret = decodeURIComponent(decoded.slice(colon + 1).replace(/\+/g, " "));
    } catch {
      throw invalidClient();
    }
    via = "client_secret_basic";
  }
  if (form.getAll("client_id").length > 1 || !clientId) throw invalidClient();
  const client = await findClient(clientId);
  if (!client) throw invalidClient();
  if (client.tokenEndpointAuthMethod === "none") {
    if (secret) throw invalidClient();
  } else {
    const row = await db.oAuthClient.findUnique({ where: { id: client.id }, select: { secretHash: true } });
    const want = Buffer.from(row?.secretHash ?? "", "hex");
    const got = Buffer.from(sha256(secret ?? ""), "hex");
    if (!secret || via === "none" || want.length !== got.length || !timingSafeEqual(want, got)) throw invalidClient();
  }
  await db.oAuthClient.update({ where: { id: client.id }, data: { lastUsedAt: new Date() } });
  return client;
}
