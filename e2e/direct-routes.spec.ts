// The production web server (scripts/web-server.mjs) answers the tool-call routes straight from their
// handlers: those answers must look like Next's own API answers (the same security headers, the
// same error body). Whole calls through these
// routes are run.spec, mcp.spec and docs-agent.spec.
import { expect, test } from "playwright/test";

const SECURITY = [
  ["content-security-policy", "default-src 'none'; frame-ancestors 'none'"],
  ["x-content-type-options", "nosniff"],
  ["x-frame-options", "DENY"],
  ["referrer-policy", "strict-origin-when-cross-origin"],
  ["cross-origin-opener-policy", "same-origin"],
] as const;

test("direct answers carry the same headers and error shape as Next's", async ({ request }) => {
  // Served by Next.js: the person's step list without a session or token.
  const viaNext = await request.get("/api/v1/steps");
  expect(viaNext.status()).toBe(401);
  const answers = [
    await request.post("/api/v1/steps", { data: { skill: "text-tools@1.0.0", tool: "word_count", input: {} } }),
    await request.get("/api/v1/steps/st_missing?wait=1", { headers: { authorization: "Bearer ova_not-a-token" } }),
    await request.post("/api/link/v1/poll", { data: {} }),
    await request.post("/api/mcp", { data: { jsonrpc: "2.0", id: 1, method: "ping" } }),
  ];
  for (const res of [viaNext, ...answers]) {
    expect(res.status(), res.url()).toBe(401);
    for (const [name, value] of SECURITY) expect(res.headers()[name], `${res.url()} ${name}`).toBe(value);
    const body = (await res.json()) as { error?: { code?: string; message?: string } };
    expect(body.error?.code, res.url()).toMatch(/^(auth|link\.signature)\./);
  }
  // A JSON answer goes out whole, with its length.
  expect(Number(answers[0]!.headers()["content-length"])).toBe((await answers[0]!.body()).byteLength);
});

test("a path the proxy must check, or a method the route does not serve, still goes to Next", async ({ request }) => {
  const encoded = await request.post("/api/v1/steps/%E0%A4%A", { data: {} });
  expect(encoded.status()).toBeGreaterThanOrEqual(400);
  expect(encoded.status()).toBeLessThan(500);
  const put = await request.put("/api/v1/steps", { data: {} });
  expect(put.status()).toBe(405);
});
