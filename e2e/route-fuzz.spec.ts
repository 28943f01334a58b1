// Over real HTTP against the production server: every API route (next-auth's included, which
// needs a running Next server) answers malformed requests with a 4xx, never a 5xx, and forged
// forwarding headers do not change which rate-limit bucket a request counts against.
import { expect, test } from "playwright/test";

const BASE = process.env.BASE_URL?.replace(/\/$/, "") ?? "";

const PATHS = [
  "/api/auth/session",
  "/api/auth/csrf",
  "/api/auth/providers",
  "/api/auth/signin/credentials",
  "/api/auth/callback/credentials",
  "/api/auth/signout",
  "/api/auth/%2e%2e/x",
  "/api/v1/me",
  "/api/v1/search?q=%ff%fe&page=-1",
  "/api/v1/skills",
  "/api/v1/skills/..%2f..%2fetc/1.0.0",
  "/api/v1/skills/a/%00/listing",
  "/api/v1/contracts/%E0%A4%A",
  "/api/v1/steps",
  "/api/v1/steps/x/decision",
  "/api/v1/installs/" + "x".repeat(3000),
  "/api/v1/audit.csv?days=1e9",
  "/api/v1/balance/top-ups",
  "/api/link/v1/poll",
  "/api/link/v1/jobs/x/inputs/y",
  "/api/link/v1/pair",
];
const BODIES = ["{", "[]", JSON.stringify({ email: ["x"], password: { a: 1 }, csrfToken: 7 }), "x".repeat(200_000)];

test("no API route answers a malformed request with a 5xx", async ({ request }) => {
  test.setTimeout(120_000);
  for (const path of PATHS) {
    for (const method of ["GET", "POST", "PUT", "DELETE"] as const) {
      for (const body of method === "GET" ? [undefined] : BODIES) {
        const res = await request.fetch(`${BASE}${path}`, {
          method,
          data: body,
          headers: {
            "content-type": body?.startsWith("{") ? "application/json" : "application/x-www-form-urlencoded",
            authorization: "Bearer ovp_" + "q".repeat(43),
            cookie: "next-auth.session-token=garbage",
            "x-ov-timestamp": "-1",
          },
          maxRedirects: 0,
          failOnStatusCode: false,
        });
        expect.soft(res.status(), `${method} ${path} ${String(body).slice(0, 40)}: ${(await res.text()).slice(0, 200)}`).toBeLessThan(500);
      }
    }
  }
});

test("a forged X-Forwarded-For does not move the rate limit", async ({ request }) => {
  const remaining = async (forwardedFor: string) => {
    const res = await request.get(`${BASE}/api/v1/contracts/actor.skill@1`, { headers: { "x-forwarded-for": forwardedFor, "x-real-ip": forwardedFor } });
    expect(res.status()).toBe(200);
    return Number(res.headers()["ratelimit-remaining"]);
  };
  const first = await remaining("203.0.113.1");
  const second = await remaining("198.51.100.77");
  const third = await remaining(`10.${Math.floor(Math.random() * 250)}.0.1`);
  // One bucket (this machine's address): each request spends from the same count.
  expect(second).toBeLessThan(first);
  expect(third).toBeLessThan(second);
});
