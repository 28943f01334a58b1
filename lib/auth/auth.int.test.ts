// Sign-up, API tokens, sessions and the sign-in limit against the real PostgreSQL and Redis,
// through the route handlers themselves where there is one.
import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createThrowawayDatabase, type ThrowawayDatabase } from "../../test/helpers/test-database";

let database: ThrowawayDatabase;
let auth: typeof import("./index");
let db: typeof import("../db").db;
let redis: typeof import("../redis").redis;
let key: typeof import("../redis").key;
let encode: typeof import("next-auth/jwt").encode;
let signupRoute: typeof import("@/app/api/v1/auth/signup/route");
let tokensRoute: typeof import("@/app/api/v1/tokens/route");
let tokenRoute: typeof import("@/app/api/v1/tokens/[id]/route");
let meRoute: typeof import("@/app/api/v1/me/route");

const SECRET = randomBytes(24).toString("hex");
const BASE = "http://localhost:3999";
const unique = () => randomBytes(4).toString("hex");

beforeAll(async () => {
  database = await createThrowawayDatabase("ov_it_auth");
  // Configure this worker before anything reads config().
  process.env.DATABASE_URL = database.url;
  process.env.REDIS_URL ??= "redis://127.0.0.1:6379";
  process.env.REDIS_PREFIX = `ov_it_auth_${unique()}`;
  process.env.AUTH_SECRET = SECRET;
  process.env.APP_URL = BASE;
  process.env.LOG_LEVEL = "error";
  auth = await import("./index");
  ({ db } = await import("../db"));
  ({ redis, key } = await import("../redis"));
  ({ encode } = await import("next-auth/jwt"));
  signupRoute = await import("@/app/api/v1/auth/signup/route");
  tokensRoute = await import("@/app/api/v1/tokens/route");
  tokenRoute = await import("@/app/api/v1/tokens/[id]/route");
  meRoute = await import("@/app/api/v1/me/route");
});

afterAll(async () => {
  if (redis) {
    const stale = await redis().keys(key("*"));
    if (stale.length) await redis().del(...stale);
    redis().disconnect();
  }
  await db?.$disconnect();
  await database?.drop();
});

function signup(body: unknown, headers: Record<string, string> = { "content-type": "application/json" }) {
  return signupRoute.POST(
    new Request(`${BASE}/api/v1/auth/signup`, { method: "POST", headers, body: typeof body === "string" ? body : JSON.stringify(body) }),
  );
}

/** The cookie next-auth itself would set after this person signs in. */
async function sessionCookie(userId: string) {
  const { startSession } = await import("./sessions");
  const token = await encode({ token: { sub: userId, sid: await startSession(userId, 3600) }, secret: SECRET });
  return `${auth.sessionCookieName()}=${token}`;
}

async function newPerson(label: string) {
  const email = `${label}-${unique()}@example.test`;
  const res = await signup({ email, name: `${label} Person`, password: "correct horse battery" });
  expect(res.status).toBe(201);
  const { user } = (await res.json()) as { user: { id: string; handle: string; email: string } };
  return { ...user, cookie: await sessionCookie(user.id) };
}

type Params = { params: Promise<Record<string, string>> };
const noParams: Params = { params: Promise.resolve({}) };

describe("sign-up", () => {
  it("creates the person and their default project, and never returns the password hash", async () => {
    const email = `Ada.${unique()}@Example.TEST`;
    const res = await signup({ email: `  ${email} `, name: "Ada Lovelace", password: "a long enough password" });
    expect(res.status).toBe(201);
    const body = (await res.json()) as { user: Record<string, unknown> };
    expect(body.user.email).toBe(email.toLowerCase());
    expect(body.user.handle).toMatch(/^ada-lovelace/);
    expect(JSON.stringify(body)).not.toMatch(/scrypt|passwordHash|token/i);
    const projects = await db.project.findMany({ where: { ownerId: body.user.id as string } });
    expect(projects).toMatchObject([{ slug: "default", isDefault: true }]);
    const stored = await db.user.findUniqueOrThrow({ where: { id: body.user.id as string }, select: { passwordHash: true } });
    expect(stored.passwordHash).toMatch(/^scrypt\$131072\$8\$1\$/);
    expect(await auth.verifyPassword("a long enough password", stored.passwordHash!)).toBe(true);
  });

  it("refuses a second account with the same email, whatever its case (409)", async () => {
    const email = `dup-${unique()}@example.test`;
    expect((await signup({ email, name: "One", password: "0123456789" })).status).toBe(201);
    const res = await signup({ email: email.toUpperCase(), name: "Two", password: "0123456789" });
    expect(res.status).toBe(409);
    expect(await res.json()).toMatchObject({ error: { code: "auth.email_taken" } });
  });

  it("gives two people with the same name different handles", async () => {
    const a = await auth.createUser({ email: `grace-${unique()}@example.test`, name: "Grace Hopper" });
    const b = await auth.createUser({ email: `grace-${unique()}@example.test`, name: "Grace Hopper" });
    expect(a.handle).not.toBe(b.handle);
    await expect(auth.createUser({ email: `x-${unique()}@example.test`, name: "X", handle: a.handle })).rejects.toMatchObject({
      code: "auth.handle_taken",
      status: 409,
    });
  });

  it.each([
    ["a short password", { email: "short@example.test", name: "S", password: "123456789" }, 422, "/password"],
    ["a long password", { email: "long@example.test", name: "L", password: "x".repeat(201) }, 422, "/password"],
    ["a bad email", { email: "not-an-email", name: "B", password: "0123456789" }, 422, "/email"],
    ["a too long email", { email: `${"a".repeat(250)}@x.io`, name: "B", password: "0123456789" }, 422, "/email"],
    ["no name", { email: "noname@example.test", name: "  ", password: "0123456789" }, 422, "/name"],
    ["a wrong type", { email: 42, name: "N", password: "0123456789" }, 422, "/email"],
  ])("answers %s with a 4xx JSON error naming the field", async (_label, body, status, path) => {
    const res = await signup(body);
    expect(res.status).toBe(status);
    const json = (await res.json()) as { error: { code: string; details: { path: string }[] } };
    expect(json.error.code).toBe("request.invalid");
    expect(json.error.details.map((d) => d.path)).toContain(path);
  });

  it("answers broken JSON with 400 and a non-JSON body with 415", async () => {
    const broken = await signup("{not json");
    expect(broken.status).toBe(400);
    expect(await broken.json()).toMatchObject({ error: { code: "request.invalid_json" } });
    const form = await signup("email=a", { "content-type": "application/x-www-form-urlencoded" });
    expect(form.status).toBe(415);
    expect(await form.json()).toMatchObject({ error: { code: "request.unsupported_media_type" } });
  });
});

describe("personal API tokens", () => {
  const tokensRequest = (method: string, cookie?: string, body?: unknown, extra: Record<string, string> = {}) =>
    new Request(`${BASE}/api/v1/tokens`, {
      method,
      headers: { ...(cookie ? { cookie } : {}), ...(body ? { "content-type": "application/json" } : {}), ...extra },
      body: body ? JSON.stringify(body) : undefined,
    });
  const revoke = (id: string, cookie?: string) =>
    tokenRoute.DELETE(new Request(`${BASE}/api/v1/tokens/${id}`, { method: "DELETE", headers: cookie ? { cookie } : {} }), {
      params: Promise.resolve({ id }),
    });
  const me = (headers: Record<string, string>) => meRoute.GET(new Request(`${BASE}/api/v1/me`, { headers }), noParams);

  it("shows the secret once, stores only its hash, and lets the token act as its owner", async () => {
    const alice = await newPerson("alice");
    const created = await tokensRoute.POST(tokensRequest("POST", alice.cookie, { name: "laptop CLI" }), noParams);
    expect(created.status).toBe(201);
    const { token, secret } = (await created.json()) as { token: { id: string; prefix: string }; secret: string };
    expect(secret).toMatch(/^ovp_[A-Za-z0-9_-]{43}$/);
    expect(token.prefix).toBe(secret.slice(4, 12));

    const row = await db.apiToken.findUniqueOrThrow({ where: { id: token.id } });
    expect(row.tokenHash).toMatch(/^[0-9a-f]{64}$/);
    expect(JSON.stringify(row)).not.toContain(secret.slice(4));

    const listed = await tokensRoute.GET(tokensRequest("GET", alice.cookie), noParams);
    const list = (await listed.json()) as { tokens: Record<string, unknown>[] };
    expect(list.tokens).toHaveLength(1);
    expect(JSON.stringify(list)).not.toContain(secret);
    expect(list.tokens[0]).not.toHaveProperty("tokenHash");

    const res = await me({ authorization: `Bearer ${secret}` });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ user: { id: alice.id, handle: alice.handle }, via: "token" });
    expect((await db.apiToken.findUniqueOrThrow({ where: { id: token.id } })).lastUsedAt).not.toBeNull();

    const bySession = await me({ cookie: alice.cookie });
    expect(await bySession.json()).toMatchObject({ user: { id: alice.id }, via: "session" });

    const audit = await db.auditEvent.findMany({ where: { subjectId: token.id } });
    expect(audit.map((a) => a.action)).toEqual(["token.created"]);
  });

  it("keeps one person's tokens invisible and unrevokable to another (404)", async () => {
    const alice = await newPerson("alice");
    const bob = await newPerson("bob");
    const created = await tokensRoute.POST(tokensRequest("POST", alice.cookie, { name: "alice's" }), noParams);
    const { token, secret } = (await created.json()) as { token: { id: string }; secret: string };

    const bobsList = (await (await tokensRoute.GET(tokensRequest("GET", bob.cookie), noParams)).json()) as { tokens: unknown[] };
    expect(bobsList.tokens).toEqual([]);

    const res = await revoke(token.id, bob.cookie);
    expect(res.status).toBe(404);
    expect(await res.json()).toMatchObject({ error: { code: "token.not_found" } });
    expect((await revoke("no-such-token", bob.cookie)).status).toBe(404);
    expect((await me({ authorization: `Bearer ${secret}` })).status).toBe(200);
  });

  it("refuses a revoked token on the very next request", async () => {
    const carol = await newPerson("carol");
    const created = await tokensRoute.POST(tokensRequest("POST", carol.cookie, { name: "ci" }), noParams);
    const { token, secret } = (await created.json()) as { token: { id: string }; secret: string };
    expect((await me({ authorization: `Bearer ${secret}` })).status).toBe(200);

    const res = await revoke(token.id, carol.cookie);
    expect(res.status).toBe(200);
    expect(((await res.json()) as { token: { revokedAt: string | null } }).token.revokedAt).not.toBeNull();

    const after = await me({ authorization: `Bearer ${secret}` });
    expect(after.status).toBe(401);
    expect(await after.json()).toMatchObject({ error: { code: "auth.token_revoked" } });
    await expect(auth.verifyApiToken(secret)).rejects.toMatchObject({ code: "auth.token_revoked" });
    expect((await revoke(token.id, carol.cookie)).status).toBe(200);
    const audit = await db.auditEvent.findMany({ where: { subjectId: token.id }, orderBy: { createdAt: "asc" } });
    expect(audit.map((a) => a.action)).toEqual(["token.created", "token.revoked"]);
  });

  it("answers missing, forged and malformed credentials with 401 JSON", async () => {
    const cases: [Record<string, string>, string][] = [
      [{}, "auth.required"],
      [{ authorization: `Bearer ovp_${"A".repeat(43)}` }, "auth.token_invalid"],
      [{ authorization: "Bearer nope" }, "auth.token_invalid"],
      [{ authorization: "Basic dXNlcjpwYXNz" }, "auth.token_invalid"],
      [{ cookie: `${auth.sessionCookieName()}=forged.jwt.value` }, "auth.required"],
    ];
    for (const [headers, code] of cases) {
      const res = await me(headers);
      expect(res.status).toBe(401);
      expect(await res.json()).toMatchObject({ error: { code } });
    }
    const otherSecret = await encode({ token: { sub: "someone" }, secret: "x".repeat(40) });
    expect((await me({ cookie: `${auth.sessionCookieName()}=${otherSecret}` })).status).toBe(401);
    expect((await tokensRoute.GET(tokensRequest("GET"), noParams)).status).toBe(401);
  });

  it("validates the token name and refuses a cross-site POST", async () => {
    const dave = await newPerson("dave");
    const empty = await tokensRoute.POST(tokensRequest("POST", dave.cookie, { name: "   " }), noParams);
    expect(empty.status).toBe(422);
    const long = await tokensRoute.POST(tokensRequest("POST", dave.cookie, { name: "n".repeat(65) }), noParams);
    expect(long.status).toBe(422);
    const crossSite = await tokensRoute.POST(
      tokensRequest("POST", dave.cookie, { name: "x" }, { origin: "https://evil.example", host: "localhost:3999" }),
      noParams,
    );
    expect(crossSite.status).toBe(403);
    expect(await db.apiToken.count({ where: { userId: dave.id } })).toBe(0);
  });
});

describe("sign-in with email and password", () => {
  it("refuses the sixth attempt after five failures from one IP, even with the right password", async () => {
    const erin = await newPerson("erin");
    const ip = `10.0.0.${Math.floor(Math.random() * 200) + 1}`;
    for (let i = 0; i < 5; i++) {
      await expect(auth.signInWithPassword({ email: erin.email, password: "wrong password", ip })).rejects.toMatchObject({
        code: "auth.invalid_credentials",
        status: 401,
      });
    }
    await expect(auth.signInWithPassword({ email: erin.email, password: "correct horse battery", ip })).rejects.toMatchObject({
      code: "auth.rate_limited",
      status: 429,
    });
    // Another IP is not blocked by these failures, and its success clears its counter.
    const user = await auth.signInWithPassword({ email: erin.email.toUpperCase(), password: "correct horse battery", ip: "10.9.9.9" });
    expect(user.id).toBe(erin.id);
  });

  it("clears the failure count after a successful sign-in", async () => {
    const frank = await newPerson("frank");
    const ip = "10.1.1.1";
    const fail = () => expect(auth.signInWithPassword({ email: frank.email, password: "nope nope nope", ip })).rejects.toThrow();
    for (let i = 0; i < 4; i++) await fail();
    await auth.signInWithPassword({ email: frank.email, password: "correct horse battery", ip });
    for (let i = 0; i < 4; i++) await fail();
    expect((await auth.signInWithPassword({ email: frank.email, password: "correct horse battery", ip })).id).toBe(frank.id);
  });

  it("answers an unknown email exactly like a wrong password", async () => {
    await expect(
      auth.signInWithPassword({ email: `ghost-${unique()}@example.test`, password: "whatever123", ip: "10.2.2.2" }),
    ).rejects.toMatchObject({ code: "auth.invalid_credentials" });
  });

  it("reports a refusal to next-auth as the error code the sign-in page shows", async () => {
    const gina = await newPerson("gina");
    const provider = auth.authOptions().providers.find((p) => p.id === "credentials") as unknown as {
      options: { authorize: (c: Record<string, string>, req: { headers: Record<string, string> }) => Promise<{ id: string }> };
    };
    const req = { headers: { "x-forwarded-for": "10.3.3.3, 10.0.0.1" } };
    await expect(provider.options.authorize({ email: gina.email, password: "bad password" }, req)).rejects.toThrow(
      "auth.invalid_credentials",
    );
    expect((await provider.options.authorize({ email: gina.email, password: "correct horse battery" }, req)).id).toBe(gina.id);
  });
});

describe("GitHub sign-in", () => {
  it("creates the person, their default project and the account once, then finds them again", async () => {
    const id = String(Math.floor(Math.random() * 1e9));
    const login = `octo${unique()}`;
    const profile = { providerAccountId: id, login, name: "Octo Cat", email: `${login}@example.test`, image: null };
    const first = await auth.signInWithGithub(profile);
    expect(first.handle).toBe(login);
    const again = await auth.signInWithGithub({ ...profile, name: "Renamed" });
    expect(again.id).toBe(first.id);
    expect(await db.account.count({ where: { provider: "github", providerAccountId: id } })).toBe(1);
    expect(await db.project.count({ where: { ownerId: first.id, isDefault: true } })).toBe(1);

    // The next-auth callbacks put that person's id in the session token.
    const { callbacks } = auth.authOptions();
    const account = { provider: "github", providerAccountId: id, type: "oauth" as const };
    expect(await callbacks!.signIn!({ user: { id }, account, profile: { login } } as never)).toBe(true);
    const token = await callbacks!.jwt!({ token: {}, user: { id }, account } as never);
    expect(token.sub).toBe(first.id);
  });

  it("does not take over an existing account that has the same email", async () => {
    const henry = await newPerson("henry");
    await expect(
      auth.signInWithGithub({ providerAccountId: String(Math.floor(Math.random() * 1e9)), login: "henry", email: henry.email }),
    ).rejects.toMatchObject({ code: "auth.account_not_linked", status: 409 });
    const { callbacks } = auth.authOptions();
    const redirect = await callbacks!.signIn!({
      user: { id: "1" },
      account: { provider: "github", providerAccountId: "424242", type: "oauth" },
      profile: { login: "henry", email: henry.email },
    } as never);
    expect(redirect).toBe("/signin?error=auth.account_not_linked");
  });
});

describe("session cookies, read with next-auth's getToken", () => {
  const me = (cookie: string, headers: Record<string, string> = {}) =>
    meRoute.GET(new Request(`${BASE}/api/v1/me`, { headers: { cookie, ...headers } }), { params: Promise.resolve({}) });

  it("joins a session cookie next-auth split into chunks", async () => {
    const person = await newPerson("chunks");
    const [name, token] = person.cookie.split("=") as [string, string];
    const half = Math.ceil(token.length / 2);
    const res = await me(`other=1; ${name}.1=${token.slice(half)}; ${name}.0=${token.slice(0, half)}`);
    expect(res.status).toBe(200);
    expect(((await res.json()) as { user: { id: string } }).user.id).toBe(person.id);
    expect((await me(`${name}.0=${token.slice(0, half)}`)).status).toBe(401);
  });

  it("takes a session only from the cookie, never from a bearer JWT in Authorization", async () => {
    const person = await newPerson("bearer-jwt");
    const token = person.cookie.split("=")[1]!;
    const { sessionPrincipal } = auth;
    await expect(
      sessionPrincipal(new Request(`${BASE}/x`, { headers: { authorization: `Bearer ${token}` } })),
    ).rejects.toMatchObject({ code: "auth.required" });
    await expect(
      sessionPrincipal(new Request(`${BASE}/x`, { headers: { cookie: person.cookie } })),
    ).resolves.toMatchObject({ userId: person.id, via: "session" });
  });
});
