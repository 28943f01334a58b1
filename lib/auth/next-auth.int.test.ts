// Sign-in through next-auth's own handler with our options: email + password (and its failure
// limit), and the whole GitHub OAuth dance against a local fake of GitHub's endpoints (the real
// ones are out of reach). The session cookies it sets are the ones the API accepts.
import { randomBytes } from "node:crypto";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, expect, it } from "vitest";
import { createThrowawayDatabase, type ThrowawayDatabase } from "../../test/helpers/test-database";

const BASE = "http://localhost:3998";
let database: ThrowawayDatabase;
let fake: Server;
let fakeUrl: string;
const exchanged: string[] = [];
const profile = { id: 424242000 + Math.floor(Math.random() * 1000), login: `octo-${randomBytes(3).toString("hex")}`, name: "Octo Cat", email: "" };
profile.email = `${profile.login}@example.test`;

let auth: typeof import("./index");
let db: typeof import("../db").db;
let NextAuth: typeof import("next-auth").default;
let GitHub: typeof import("next-auth/providers/github").default;
let meRoute: typeof import("@/app/api/v1/me/route");

beforeAll(async () => {
  fake = createServer((req, res) => {
    let body = "";
    req.on("data", (c) => (body += c));
    req.on("end", () => {
      if (req.method === "POST" && req.url?.startsWith("/login/oauth/access_token")) {
        exchanged.push(new URLSearchParams(body).get("code") ?? "");
        res.writeHead(200, { "content-type": "application/json" });
        res.end(JSON.stringify({ access_token: "gho_fake_access", token_type: "bearer", scope: "read:user,user:email" }));
        return;
      }
      if (req.method === "GET" && req.url === "/user" && req.headers.authorization === "Bearer gho_fake_access") {
        res.writeHead(200, { "content-type": "application/json" });
        res.end(JSON.stringify({ ...profile, avatar_url: "https://avatars.example/octo.png" }));
        return;
      }
      res.writeHead(404).end();
    });
  });
  await new Promise<void>((resolve) => fake.listen(0, "127.0.0.1", resolve));
  fakeUrl = `http://127.0.0.1:${(fake.address() as AddressInfo).port}`;

  database = await createThrowawayDatabase("ov_it_gh");
   
  process.env.DATABASE_URL = database.url;
  process.env.REDIS_URL ??= "redis://127.0.0.1:6379";
  process.env.REDIS_PREFIX = `ov_it_gh_${randomBytes(4).toString("hex")}`;
  process.env.AUTH_SECRET = randomBytes(24).toString("hex");
  process.env.APP_URL = BASE;
  process.env.LOG_LEVEL = "error";
   
  auth = await import("./index");
  ({ db } = await import("../db"));
  NextAuth = (await import("next-auth")).default;
  GitHub = (await import("next-auth/providers/github")).default;
  meRoute = await import("@/app/api/v1/me/route");
});

afterAll(async () => {
  fake?.close();
  const { redis, key } = await import("../redis");
  const stale = await redis().keys(key("*"));
  if (stale.length) await redis().del(...stale);
  redis().disconnect();
  await db?.$disconnect();
  await database?.drop();
});

/** Our next-auth options, with GitHub's endpoints pointed at the fake. */
function options() {
  const ours = auth.authOptions();
  return {
    ...ours,
    providers: [
      ...ours.providers.filter((p) => p.id === "credentials"),
      GitHub({
        clientId: "fake-client",
        clientSecret: "fake-secret",
        authorization: { url: `${fakeUrl}/login/oauth/authorize`, params: { scope: "read:user user:email" } },
        token: `${fakeUrl}/login/oauth/access_token`,
        userinfo: { url: `${fakeUrl}/user` },
      }),
    ],
  };
}

type Result = { status: number; redirect?: string; body?: unknown };

/**
 * One request through next-auth's own handler (its API-route form: the App Router form reads
 * next/headers, which exists only inside a running Next server). Cookies go in and out of `jar`.
 */
async function call(path: string, jar: Map<string, string>, init: { method?: string; body?: Record<string, string> } = {}) {
  const url = new URL(path, BASE);
  const headers: Record<string, string | string[]> = {};
  const result: Result = { status: 200 };
  const res = {
    status(code: number) {
      result.status = code;
      return res;
    },
    getHeader: (name: string) => headers[name.toLowerCase()],
    setHeader(name: string, value: string | string[]) {
      headers[name.toLowerCase()] = value;
      if (name.toLowerCase() === "location") result.redirect = String(value);
    },
    end() {},
    json(body: unknown) {
      result.body = body;
    },
    send(body: unknown) {
      result.body = body;
    },
  };
  const req = {
    method: init.method ?? "GET",
    query: { ...Object.fromEntries(url.searchParams), nextauth: url.pathname.split("/").slice(3) },
    body: init.body ?? {},
    cookies: Object.fromEntries(jar),
    headers: { host: url.host, "x-forwarded-for": "127.0.0.1" },
  };
  await NextAuth(req as never, res as never, options());
  for (const line of [headers["set-cookie"] ?? []].flat()) {
    const [pair] = line.split(";");
    const eq = pair!.indexOf("=");
    const name = pair!.slice(0, eq);
    const value = decodeURIComponent(pair!.slice(eq + 1));
    if (/expires=Thu, 01 Jan 1970/i.test(line) || value === "") jar.delete(name);
    else jar.set(name, value);
  }
  return result;
}

async function signInWithFakeGithub() {
  const jar = new Map<string, string>();
  const csrf = await call("/api/auth/csrf", jar);
  const start = await call("/api/auth/signin/github", jar, {
    method: "POST",
    body: { csrfToken: (csrf.body as { csrfToken: string }).csrfToken, callbackUrl: `${BASE}/dashboard` },
  });
  const authorize = new URL(String(start.redirect));
  expect(authorize.origin + authorize.pathname).toBe(`${fakeUrl}/login/oauth/authorize`);
  const state = authorize.searchParams.get("state");
  expect(state).toBeTruthy();
  const code = `code-${randomBytes(4).toString("hex")}`;
  const done = await call(`/api/auth/callback/github?code=${code}&state=${state}`, jar);
  expect(exchanged).toContain(code);
  return { done, jar };
}

it("creates the person on first GitHub sign-in, gives them a working session, and finds them again", async () => {
  const first = await signInWithFakeGithub();
  expect(first.done.redirect).toBe(`${BASE}/dashboard`);
  const sessionCookie = auth.sessionCookieName();
  expect(first.jar.get(sessionCookie)).toBeTruthy();

  const user = await db.user.findUniqueOrThrow({ where: { email: profile.email }, include: { accounts: true, projects: true }, omit: { passwordHash: false } });
  expect(user).toMatchObject({ handle: profile.login, name: "Octo Cat", image: "https://avatars.example/octo.png", passwordHash: null });
  expect(user.accounts).toMatchObject([{ provider: "github", providerAccountId: String(profile.id) }]);
  expect(user.projects).toMatchObject([{ slug: "default", isDefault: true }]);

  const me = await meRoute.GET(
    new Request(`${BASE}/api/v1/me`, { headers: { cookie: `${sessionCookie}=${first.jar.get(sessionCookie)}` } }),
    { params: Promise.resolve({}) },
  );
  expect(me.status).toBe(200);
  expect(await me.json()).toMatchObject({ user: { id: user.id, handle: profile.login }, via: "session" });

  const second = await signInWithFakeGithub();
  expect(second.done.redirect).toBe(`${BASE}/dashboard`);
  expect(await db.user.count({ where: { email: profile.email } })).toBe(1);
  expect(await db.account.count({ where: { providerAccountId: String(profile.id) } })).toBe(1);
});

it("sends a GitHub sign-in whose email belongs to a password account back to /signin with the reason", async () => {
  const taken = await auth.createUser({ email: `taken-${randomBytes(3).toString("hex")}@example.test`, name: "Taken", password: "0123456789ab" });
  const before = { ...profile };
  profile.id += 1;
  profile.login = `other-${randomBytes(3).toString("hex")}`;
  profile.email = taken.email;
  try {
    const { done, jar } = await signInWithFakeGithub();
    expect(done.redirect).toBe("/signin?error=auth.account_not_linked");
    expect(jar.get(auth.sessionCookieName())).toBeUndefined();
    expect(await db.account.count({ where: { userId: taken.id } })).toBe(0);
  } finally {
    Object.assign(profile, before);
  }
});

it("signs in with email and password through next-auth, and refuses with auth.rate_limited after five failures", async () => {
  const password = "correct horse battery";
  const person = await auth.createUser({ email: `pat-${randomBytes(3).toString("hex")}@example.test`, name: "Pat", password });
  const attempt = async (pw: string) => {
    const jar = new Map<string, string>();
    const csrf = await call("/api/auth/csrf", jar);
    const res = await call("/api/auth/callback/credentials", jar, {
      method: "POST",
      body: { csrfToken: (csrf.body as { csrfToken: string }).csrfToken, email: person.email, password: pw, callbackUrl: `${BASE}/dashboard` },
    });
    return { res, session: jar.get(auth.sessionCookieName()) };
  };

  const ok = await attempt(password);
  expect(ok.res.redirect).toBe(`${BASE}/dashboard`);
  const me = await meRoute.GET(new Request(`${BASE}/api/v1/me`, { headers: { cookie: `${auth.sessionCookieName()}=${ok.session}` } }), {
    params: Promise.resolve({}),
  });
  expect(await me.json()).toMatchObject({ user: { id: person.id }, via: "session" });

  for (let i = 0; i < 5; i++) {
    const bad = await attempt("wrong password!");
    expect(bad.res.redirect).toContain("error=auth.invalid_credentials");
    expect(bad.session).toBeUndefined();
  }
  const limited = await attempt(password);
  expect(limited.res.redirect).toContain("error=auth.rate_limited");
  expect(limited.session).toBeUndefined();
});

const signInJar = async (email: string, password: string) => {
  const jar = new Map<string, string>();
  const csrf = await call("/api/auth/csrf", jar);
  const res = await call("/api/auth/callback/credentials", jar, {
    method: "POST",
    body: { csrfToken: (csrf.body as { csrfToken: string }).csrfToken, email, password, callbackUrl: `${BASE}/dashboard` },
  });
  return { res, jar };
};
const meWith = (cookie: string | undefined) =>
  meRoute.GET(new Request(`${BASE}/api/v1/me`, { headers: { cookie: `${auth.sessionCookieName()}=${cookie}` } }), {
    params: Promise.resolve({}),
  });

it("ends the session on sign-out: a copy of the cookie taken before stops working", async () => {
  const password = "a password to sign out with";
  const person = await auth.createUser({ email: `out-${randomBytes(3).toString("hex")}@example.test`, name: "Out", password });
  const { jar } = await signInJar(person.email, password);
  const stolen = jar.get(auth.sessionCookieName());
  expect(stolen).toBeTruthy();
  expect((await meWith(stolen)).status).toBe(200);
  // A second browser of the same person keeps its own session.
  const other = (await signInJar(person.email, password)).jar.get(auth.sessionCookieName());

  const csrf = await call("/api/auth/csrf", jar);
  await call("/api/auth/signout", jar, { method: "POST", body: { csrfToken: (csrf.body as { csrfToken: string }).csrfToken } });
  expect(jar.get(auth.sessionCookieName())).toBeUndefined();

  const after = await meWith(stolen);
  expect(after.status).toBe(401);
  expect((await after.json()).error.code).toBe("auth.required");
  expect((await meWith(other)).status).toBe(200);
  expect(await db.authSession.count({ where: { userId: person.id, revokedAt: { not: null } } })).toBe(1);
});

it("refuses a session cookie that names no session (one made before sessions were rows, or forged)", async () => {
  const { encode } = await import("next-auth/jwt");
  const person = await auth.createUser({ email: `old-${randomBytes(3).toString("hex")}@example.test`, name: "Old", password: null });
  const secret = process.env.AUTH_SECRET!;
  const noSid = await encode({ token: { sub: person.id }, secret });
  expect((await meWith(noSid)).status).toBe(401);
  const madeUp = await encode({ token: { sub: person.id, sid: "x".repeat(32) }, secret });
  expect((await meWith(madeUp)).status).toBe(401);
});

it("rehashes a password stored at the old scrypt cost when its owner signs in", async () => {
  const { scryptSync } = await import("node:crypto");
  const password = "an old-fashioned password";
  const person = await auth.createUser({ email: `rehash-${randomBytes(3).toString("hex")}@example.test`, name: "Re", password: null });
  const salt = randomBytes(16);
  const key = scryptSync(password, salt, 32, { N: 2 ** 15, r: 8, p: 1, maxmem: 64 * 1024 * 1024 });
  const old = ["scrypt", 2 ** 15, 8, 1, salt.toString("base64url"), key.toString("base64url")].join("$");
  await db.user.update({ where: { id: person.id }, data: { passwordHash: old } });

  const { res } = await signInJar(person.email, password);
  expect(res.redirect).toBe(`${BASE}/dashboard`);
  const stored = await db.user.findUniqueOrThrow({ where: { id: person.id }, select: { passwordHash: true } });
  expect(stored.passwordHash).not.toBe(old);
  expect(stored.passwordHash!.split("$").slice(0, 4)).toEqual(["scrypt", "131072", "8", "1"]);
  expect((await signInJar(person.email, password)).res.redirect).toBe(`${BASE}/dashboard`);
});
