// Scoped personal API tokens through the route handlers, against the real PostgreSQL and Redis:
// a token does what its scopes name and nothing else; topping up and managing tokens need a
// browser session; revoked and expired tokens are refused.
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { setupIntegration, type IntegrationEnv } from "../helpers/integration";

const ROOT = path.resolve(import.meta.dirname, "../..");
const BASE = "http://localhost:3999";
const noParams = { params: Promise.resolve({}) };
let env: IntegrationEnv;
let auth: typeof import("../../lib/auth");
let person: { id: string };
let cookie: string;
let version: string;
let routes: {
  installs: typeof import("@/app/api/v1/installs/route");
  agents: typeof import("@/app/api/v1/agents/route");
  topUps: typeof import("@/app/api/v1/balance/top-ups/route");
  balance: typeof import("@/app/api/v1/balance/route");
  tokens: typeof import("@/app/api/v1/tokens/route");
  token: typeof import("@/app/api/v1/tokens/[id]/route");
  me: typeof import("@/app/api/v1/me/route");
};

function request(pathname: string, headers: Record<string, string>, body?: unknown, method = body ? "POST" : "GET") {
  return new Request(`${BASE}${pathname}`, {
    method,
    headers: { ...headers, ...(body ? { "content-type": "application/json" } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
}

const bearer = (secret: string) => ({ authorization: `Bearer ${secret}` });

async function errorOf(res: Response) {
  return ((await res.json()) as { error: { code: string; message: string; details?: unknown } }).error;
}

beforeAll(async () => {
  env = await setupIntegration("scoped-tokens");
  auth = await import("../../lib/auth");
  const { encode } = await import("next-auth/jwt");
  const { startSession } = await import("../../lib/auth/sessions");
  const { loadBundle } = await import("../../lib/contracts");
  const { publishSkill, scanVersion } = await import("../../lib/registry");
  person = await auth.createUser({ email: "tok@example.test", name: "Tok", password: null });
  const jwt = await encode({
    token: { sub: person.id, sid: await startSession(person.id, 3600) },
    secret: process.env.AUTH_SECRET!,
  });
  cookie = `${auth.sessionCookieName()}=${jwt}`;
  const bundle = await loadBundle(path.join(ROOT, "scripts/demo/skills/text-tools"));
  if (!bundle.ok) throw new Error("bundle");
  version = bundle.document.version;
  const { versionId } = await publishSkill({ ownerId: person.id, document: bundle.document, scan: "none" });
  await scanVersion(versionId);
  routes = {
    installs: await import("@/app/api/v1/installs/route"),
    agents: await import("@/app/api/v1/agents/route"),
    topUps: await import("@/app/api/v1/balance/top-ups/route"),
    balance: await import("@/app/api/v1/balance/route"),
    tokens: await import("@/app/api/v1/tokens/route"),
    token: await import("@/app/api/v1/tokens/[id]/route"),
    me: await import("@/app/api/v1/me/route"),
  };
}, 120_000);

afterAll(async () => {
  await (await import("../../lib/runs")).dispatchQueue().close();
  await (await import("../../lib/registry")).scanQueue().close();
  await (await import("../../lib/events")).closeEvents();
  await env?.teardown();
});

describe("a token that has only `installs`", () => {
  it("installs a skill, and gets 403 auth.scope_missing naming `agents` on /api/v1/agents", async () => {
    const { secret } = await auth.createApiToken(person.id, "installer", { scopes: ["installs"] });
    const installed = await routes.installs.POST(
      request("/api/v1/installs", bearer(secret), { slug: "text-tools", version }),
      noParams,
    );
    expect(installed.status).toBe(201);
    expect(await installed.json()).toMatchObject({ outcome: "installed" });
    const listed = await routes.installs.GET(request("/api/v1/installs", bearer(secret)), noParams);
    expect(listed.status).toBe(200);
    expect(((await listed.json()) as { installs: unknown[] }).installs).toHaveLength(1);

    for (const res of [
      await routes.agents.GET(request("/api/v1/agents", bearer(secret)), noParams),
      await routes.agents.POST(request("/api/v1/agents", bearer(secret), { name: "bot" }), noParams),
    ]) {
      expect(res.status).toBe(403);
      const error = await errorOf(res);
      expect(error).toMatchObject({ code: "auth.scope_missing", details: { scope: "agents" } });
      expect(error.message).toContain("agents");
    }
    expect(await env.db.agent.count({ where: { userId: person.id } })).toBe(0);
    const balance = await routes.balance.GET(request("/api/v1/balance", bearer(secret)), noParams);
    expect(await errorOf(balance)).toMatchObject({ code: "auth.scope_missing", details: { scope: "billing:read" } });
  });

  it("still lets the session do everything", async () => {
    const res = await routes.agents.GET(request("/api/v1/agents", { cookie }), noParams);
    expect(res.status).toBe(200);
  });
});

describe("what no token can do", () => {
  it("top up, or list, create or revoke tokens: 403 auth.session_required", async () => {
    const { token, secret } = await auth.createApiToken(person.id, "everything", {
      scopes: [...auth.API_TOKEN_SCOPES],
    });
    const attempts = [
      await routes.topUps.POST(
        request("/api/v1/balance/top-ups", bearer(secret), { amount_micros: "5000000", idempotency_key: "tok-1" }),
        noParams,
      ),
      await routes.tokens.POST(
        request("/api/v1/tokens", bearer(secret), { name: "child", scopes: ["agents"] }),
        noParams,
      ),
      await routes.tokens.GET(request("/api/v1/tokens", bearer(secret)), noParams),
      await routes.token.DELETE(request(`/api/v1/tokens/${token.id}`, bearer(secret), undefined, "DELETE"), {
        params: Promise.resolve({ id: token.id }),
      }),
    ];
    for (const res of attempts) {
      expect(res.status).toBe(403);
      expect(await errorOf(res)).toMatchObject({ code: "auth.session_required" });
    }
    expect(await env.db.apiToken.count({ where: { userId: person.id, name: "child" } })).toBe(0);
    expect((await env.db.apiToken.findUniqueOrThrow({ where: { id: token.id } })).revokedAt).toBeNull();
    expect(await env.db.ledgerEntry.count({ where: { userId: person.id } })).toBe(0);
  });
});

describe("creating a scoped token in the browser", () => {
  it("stores the picked scopes and expiry, shows the secret once, and /me names the scopes", async () => {
    const res = await routes.tokens.POST(
      request("/api/v1/tokens", { cookie }, { name: "ci", scopes: ["runs:read", "installs"], expires_in_days: 30 }),
      noParams,
    );
    expect(res.status).toBe(201);
    const { token, secret } = (await res.json()) as {
      token: { id: string; scopes: string[]; expiresAt: string };
      secret: string;
    };
    expect(token.scopes).toEqual(["installs", "runs:read"]);
    const days = (new Date(token.expiresAt).getTime() - Date.now()) / 86_400_000;
    expect(days).toBeGreaterThan(29.9);
    expect(days).toBeLessThanOrEqual(30);
    const me = await routes.me.GET(request("/api/v1/me", bearer(secret)), noParams);
    expect(await me.json()).toMatchObject({ via: "token", scopes: ["installs", "runs:read"] });
    const listed = (await (await routes.tokens.GET(request("/api/v1/tokens", { cookie }), noParams)).json()) as {
      tokens: { id: string; scopes: string[] }[];
    };
    expect(listed.tokens.find((t) => t.id === token.id)?.scopes).toEqual(["installs", "runs:read"]);
    expect(JSON.stringify(listed)).not.toContain(secret);
  });

  it("refuses an unknown scope, no scope, or an expiry out of range (422)", async () => {
    for (const body of [
      { name: "x", scopes: ["admin"] },
      { name: "x", scopes: [] },
      { name: "x", scopes: ["installs"], expires_in_days: 0 },
      { name: "x", scopes: ["installs"], expires_in_days: 10_000 },
    ]) {
      const res = await routes.tokens.POST(request("/api/v1/tokens", { cookie }, body), noParams);
      expect(res.status, JSON.stringify(body)).toBe(422);
      expect(await errorOf(res)).toMatchObject({ code: "request.invalid" });
    }
  });
});

describe("a revoked or expired token", () => {
  it("is refused with 401 on a route its scopes cover", async () => {
    const revoked = await auth.createApiToken(person.id, "revoked", { scopes: ["installs"] });
    await auth.revokeApiToken(person.id, revoked.token.id);
    const res = await routes.installs.GET(request("/api/v1/installs", bearer(revoked.secret)), noParams);
    expect(res.status).toBe(401);
    expect(await errorOf(res)).toMatchObject({ code: "auth.token_revoked" });

    const expiring = await auth.createApiToken(person.id, "expiring", { scopes: ["installs"], expiresInDays: 1 });
    expect((await routes.installs.GET(request("/api/v1/installs", bearer(expiring.secret)), noParams)).status).toBe(
      200,
    );
    await env.db.apiToken.update({
      where: { id: expiring.token.id },
      data: { expiresAt: new Date(Date.now() - 1000) },
    });
    for (const res of [
      await routes.installs.GET(request("/api/v1/installs", bearer(expiring.secret)), noParams),
      await routes.tokens.GET(request("/api/v1/tokens", bearer(expiring.secret)), noParams),
    ]) {
      expect(res.status).toBe(401);
      expect(await errorOf(res)).toMatchObject({ code: "auth.token_expired" });
    }
  });

  it("a token made before scopes keeps reading the account and publishing", async () => {
    const { token, secret } = await auth.createApiToken(person.id, "legacy");
    expect(token.scopes).toEqual(["skills:read", "skills:publish"]);
    expect((await routes.me.GET(request("/api/v1/me", bearer(secret)), noParams)).status).toBe(200);
    const res = await routes.installs.GET(request("/api/v1/installs", bearer(secret)), noParams);
    expect(await errorOf(res)).toMatchObject({ code: "auth.scope_missing", details: { scope: "installs" } });
  });
});
