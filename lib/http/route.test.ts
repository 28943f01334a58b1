import { describe, expect, it, vi } from "vitest";

vi.stubEnv("DATABASE_URL", "postgresql://postgres@127.0.0.1:5432/unused");
vi.stubEnv("REDIS_URL", "redis://127.0.0.1:6379/0");
vi.stubEnv("AUTH_SECRET", "x".repeat(32));
vi.stubEnv("LOG_LEVEL", "error");

const { answerText, route, z, MAX_JSON_BODY_BYTES } = await import("./route");
const { AppError } = await import("../errors");

const post = (body: BodyInit | null, type = "application/json") =>
  new Request("http://localhost/x", { method: "POST", body, headers: body === null ? {} : { "content-type": type } });

describe("route()", () => {
  it("works with the context Next passes to a route without params (params resolve to undefined)", async () => {
    const handler = route({ handler: async ({ params }) => ({ params }) });
    const res = await handler(new Request("http://localhost/x"), { params: Promise.resolve(undefined) });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ params: {} });
  });

  it("answers an AppError with its status and the one error shape", async () => {
    const handler = route({
      handler: async () => {
        throw new AppError("token.not_found", "That token was not found.");
      },
    });
    const res = await handler(new Request("http://localhost/x"));
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({ error: { code: "token.not_found", message: "That token was not found." } });
  });

  it("answers 422 with JSON paths for a body that fails its schema", async () => {
    const handler = route({ body: z.object({ name: z.string().min(1), n: z.number() }), handler: async () => ({}) });
    const res = await handler(post(JSON.stringify({ name: "", n: "1" })));
    expect(res.status).toBe(422);
    const body = await res.json();
    expect(body.error.code).toBe("request.invalid");
    expect(body.error.details.map((d: { path: string }) => d.path)).toEqual(["/name", "/n"]);
  });

  it("answers 400 for broken JSON, 415 for another type, 413 for an oversized body", async () => {
    const handler = route({ body: z.object({}), handler: async () => ({}) });
    expect((await handler(post("{"))).status).toBe(400);
    expect((await handler(post("a=1", "application/x-www-form-urlencoded"))).status).toBe(415);
    expect((await handler(post("x".repeat(MAX_JSON_BODY_BYTES + 1)))).status).toBe(413);
  });

  it("answers an unknown error with 500, a request id and no internals", async () => {
    const handler = route({
      handler: async () => {
        throw new Error("connection string postgresql://secret@db");
      },
    });
    const res = await handler(new Request("http://localhost/x", { headers: { "x-request-id": "req-123" } }));
    expect(res.status).toBe(500);
    const text = await res.text();
    expect(text).not.toContain("secret");
    expect(JSON.parse(text)).toEqual({
      error: { code: "internal", message: expect.any(String), requestId: "req-123" },
    });
  });

  it("refuses a NUL anywhere in a JSON body (PostgreSQL would fail with a 500) and deep nesting too", async () => {
    const handler = route({ body: z.unknown(), handler: async () => ({ ok: true }) });
    const nul = await handler(post(JSON.stringify({ a: [{ b: "x\u0000" }] })));
    expect(nul.status).toBe(422);
    expect((await nul.json()).error.code).toBe("request.invalid");
    const deep = await handler(post("[".repeat(5_000) + '"\\u0000"' + "]".repeat(5_000)));
    expect(deep.status).toBe(422);
    // The walk is iterative: 400 000 levels cannot overflow the stack.
    const deeper = await handler(post("[".repeat(400_000) + '"\\u0000"' + "]".repeat(400_000)));
    expect(deeper.status).toBe(422);
  });

  it("answers a path param with a NUL as not found", async () => {
    const handler = route({ handler: async ({ params }) => params });
    const res = await handler(new Request("http://localhost/x"), { params: Promise.resolve({ id: "a\u0000" }) });
    expect(res.status).toBe(404);
  });
});

describe("answerText()", () => {
  it("writes BigInt values (ledger amounts) as decimal strings, at any depth", () => {
    const text = answerText({ balance: 12_000_000_000_000_000_001n, runs: [{ cost: 5n, id: "r1" }], note: null });
    expect(JSON.parse(text)).toEqual({ balance: "12000000000000000001", runs: [{ cost: "5", id: "r1" }], note: null });
  });

  it("writes an answer without BigInt exactly as JSON.stringify does", () => {
    const answer = { id: "s1", status: "succeeded", output: { words: 3 }, at: new Date(0), gone: undefined };
    expect(answerText(answer)).toBe(JSON.stringify(answer));
  });

  it("still refuses what JSON cannot hold (a cycle), instead of hiding it", () => {
    const cycle: Record<string, unknown> = { id: "x" };
    cycle.self = cycle;
    expect(() => answerText(cycle)).toThrow(TypeError);
  });
});
