// Rate limits against the real Redis, through real HTTP (so the client IP is the socket's, as in
// the Next server): 429 `rate.limited` with Retry-After and RateLimit-* headers, per IP for
// anonymous calls, per person for publish, failed credentials per IP, and forged forwarding
// headers that change nothing.
import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { setupIntegration, type IntegrationEnv } from "../helpers/integration";
import { serveRoutes } from "../helpers/route-server";

let env: IntegrationEnv;
let server: { url: string; close(): Promise<void> };
let token: string;
let limits: typeof import("../../lib/config/rate-limits");

beforeAll(async () => {
  vi.stubEnv("RATE_LIMIT_SCALE", "1");
  env = await setupIntegration("ratelimit");
  limits = await import("../../lib/config/rate-limits");
  const { installPeerAddressHook } = await import("../../lib/http/peer-address");
  installPeerAddressHook();
  const { createUser, createApiToken } = await import("../../lib/auth");
  const user = await createUser({ email: "rl@example.test", name: "Rate", password: null });
  token = (await createApiToken(user.id, "rl")).secret;
  const signup = await import("../../app/api/v1/auth/signup/route");
  const skills = await import("../../app/api/v1/skills/route");
  const contracts = await import("../../app/api/v1/contracts/[name]/route");
  const me = await import("../../app/api/v1/me/route");
  const nextauth = await import("../../app/api/auth/[...nextauth]/route");
  server = await serveRoutes([
    { method: "POST", pattern: "/api/v1/auth/signup", handler: signup.POST },
    { method: "POST", pattern: "/api/v1/skills", handler: skills.POST },
    { method: "GET", pattern: "/api/v1/contracts/[name]", handler: contracts.GET },
    { method: "GET", pattern: "/api/v1/me", handler: me.GET },
    {
      method: "POST",
      pattern: "/api/auth/callback/credentials",
      handler: (req) => nextauth.POST(req, { params: Promise.resolve({ nextauth: ["callback", "credentials"] }) }),
    },
  ]);
}, 120_000);

afterAll(async () => {
  await server?.close();
  await env?.teardown();
});

const randomIp = () => [1, 2, 3, 4].map(() => Math.floor(Math.random() * 250) + 1).join(".");
const forged = () => ({
  "x-forwarded-for": `${randomIp()}, ${randomIp()}`,
  "x-real-ip": randomIp(),
  "x-openvibe-peer-address": randomIp(),
  forwarded: `for=${randomIp()}`,
});

const signUp = (headers: Record<string, string> = {}) =>
  fetch(`${server.url}/api/v1/auth/signup`, {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body: JSON.stringify({
      email: `p-${randomBytes(4).toString("hex")}@example.test`,
      name: "P",
      password: "a long enough password",
    }),
  });

function expectLimited(res: Response, limit: number, windowSeconds: number) {
  expect(res.status).toBe(429);
  expect(Number(res.headers.get("retry-after"))).toBeGreaterThan(0);
  expect(Number(res.headers.get("retry-after"))).toBeLessThanOrEqual(windowSeconds);
  expect(res.headers.get("ratelimit-limit")).toBe(String(limit));
  expect(res.headers.get("ratelimit-remaining")).toBe("0");
  expect(res.headers.get("ratelimit-policy")).toBe(`${limit};w=${windowSeconds}`);
}

describe("rate limits", () => {
  it("limits sign-ups per IP, and forged forwarding headers do not move the limit", async () => {
    const { points, durationSeconds } = limits.SIGN_UP_RATE_LIMIT;
    for (let i = 0; i < points; i++) {
      const res = await signUp(forged());
      expect(res.status, await res.clone().text()).toBe(201);
      expect(res.headers.get("ratelimit-limit")).toBeTruthy();
    }
    const res = await signUp(forged());
    expectLimited(res, points, durationSeconds);
    const body = await res.json();
    expect(body.error.code).toBe("rate.limited");
    expect(body.error.message).toMatch(/wait/i);
    // Nothing was stored for the refused request.
    expect(await env.db.user.count()).toBe(1 + points);
  });

  it("limits anonymous requests per IP", async () => {
    const { points, durationSeconds } = limits.ANONYMOUS_RATE_LIMIT;
    const get = () => fetch(`${server.url}/api/v1/contracts/actor.skill@1`, { headers: forged() });
    // Sign-ups above count as anonymous requests from this IP too.
    let last: Response | undefined;
    for (let i = 0; i < points; i++) {
      last = await get();
      if (last.status === 429) break;
      await last.arrayBuffer();
    }
    last = last?.status === 429 ? last : await get();
    expectLimited(last, points, durationSeconds);
  });

  it("limits publishing per person, dry runs included", async () => {
    const { points, durationSeconds } = limits.PUBLISH_RATE_LIMIT;
    const publish = () =>
      fetch(`${server.url}/api/v1/skills?dry_run=1`, {
        method: "POST",
        headers: { authorization: `Bearer ${token}`, "content-type": "text/plain", ...forged() },
        body: "not a bundle",
      });
    for (let i = 0; i < points; i++) expect((await publish()).status).toBe(415);
    const res = await publish();
    expectLimited(res, points, durationSeconds);
    // Other API routes stay open to the same person.
    const me = await fetch(`${server.url}/api/v1/me`, { headers: { authorization: `Bearer ${token}` } });
    expect(me.status).toBe(200);
    expect(Number(me.headers.get("ratelimit-remaining"))).toBeGreaterThan(0);
  });

  it("does not count a Link's requests that hand over or finish the server's work, and counts the rest", async () => {
    const { route } = await import("../../lib/http/route");
    const { points, durationSeconds } = limits.LINK_RATE_LIMIT;
    const linkId = `link-${randomBytes(6).toString("hex")}`;
    // As the poll and result routes: an answer that hands over a job (or records a first result) is uncounted.
    const handler = route({
      auth: async () => ({ linkId, userId: "someone" }),
      handler: async ({ req }) => ({ handed: new URL(req.url).searchParams.get("work") === "1" }),
      uncountedIf: (answer) => answer.handed,
    });
    const link = await serveRoutes([{ method: "GET", pattern: "/work", handler }]);
    try {
      const ask = async (work: boolean) => {
        const res = await fetch(`${link.url}/work?work=${work ? 1 : 0}`);
        await res.arrayBuffer();
        return res;
      };
      // More requests than the limit, each doing the server's work: none is refused, none stays counted.
      for (let i = 0; i < points + 20; i++) {
        const res = await ask(true);
        expect(res.status).toBe(200);
        expect(res.headers.get("ratelimit-remaining")).toBe(String(points - 1));
      }
      // Requests that do none (an empty poll, a repeated result) count as any other.
      for (let i = 0; i < points; i++) expect((await ask(false)).status).toBe(200);
      expectLimited(await ask(false), points, durationSeconds);
      // Spent is spent: a request that would hand over work waits too.
      expectLimited(await ask(true), points, durationSeconds);
    } finally {
      await link.close();
    }
  });

  it("makes an IP that keeps failing to authenticate wait, even with a good token afterwards", async () => {
    const { points, durationSeconds } = limits.AUTH_FAILURE_RATE_LIMIT;
    const bad = () =>
      fetch(`${server.url}/api/v1/me`, { headers: { authorization: `Bearer ovp_${"x".repeat(43)}`, ...forged() } });
    for (let i = 0; i < points; i++) expect((await bad()).status).toBe(401);
    expectLimited(await bad(), points, durationSeconds);
    const good = await fetch(`${server.url}/api/v1/me`, { headers: { authorization: `Bearer ${token}` } });
    expect(good.status).toBe(429);
    expect((await good.json()).error.code).toBe("rate.limited");
  });

  it("limits sign-in attempts per IP with an answer next-auth's client understands", async () => {
    const { redis, key } = await import("../../lib/redis");
    // The previous test blocked this IP for failed credentials; sign-in has its own limits.
    const { points, durationSeconds } = limits.SIGN_IN_RATE_LIMIT;
    const attempt = () =>
      fetch(`${server.url}/api/auth/callback/credentials`, {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded", ...forged() },
        body: "email=nobody%40example.test",
      });
    const anonymousKeys = await redis().keys(`${key("ratelimit", "anonymous")}*`);
    if (anonymousKeys.length) await redis().del(...anonymousKeys);
    for (let i = 0; i < points; i++) expect((await attempt()).status).toBe(422);
    const res = await attempt();
    expectLimited(res, points, durationSeconds);
    const body = await res.json();
    expect(body.error.code).toBe("rate.limited");
    expect(new URL(body.url).searchParams.get("error")).toBe("rate.limited");
  });
});
