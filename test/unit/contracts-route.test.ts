import { describe, expect, it, vi } from "vitest";

// The route() wrapper counts the request against the rate limit (Redis, else memory): it needs a config.
vi.stubEnv("DATABASE_URL", "postgresql://postgres@127.0.0.1:5432/unused");
vi.stubEnv("REDIS_URL", "redis://127.0.0.1:6379/0");
vi.stubEnv("AUTH_SECRET", "x".repeat(32));
vi.stubEnv("LOG_LEVEL", "error");
const { GET } = await import("@/app/api/v1/contracts/[name]/route");

const get = (name: string, param = name) =>
  GET(new Request(`http://localhost/api/v1/contracts/${encodeURIComponent(name)}`), {
    params: Promise.resolve({ name: param }),
  });

describe("GET /api/v1/contracts/<name>", () => {
  it.each(["actor.skill@1", "actor.skill@2", "actor.skill-listing@1", "actor.skill-listing@2"])(
    "serves %s as JSON Schema",
    async (name) => {
      const res = await get(name);
      expect(res.status).toBe(200);
      expect(res.headers.get("content-type")).toMatch(/^application\/schema\+json/);
      const schema = await res.json();
      expect(schema.$id).toBe(`https://openvibe.services/contracts/${name}.json`);
    },
  );

  it("accepts the name still percent-encoded", async () => {
    expect((await get("actor.skill@2", "actor.skill%402")).status).toBe(200);
  });

  it("answers 404 contract.not_found for an unknown name", async () => {
    const res = await get("actor.skill@9");
    expect(res.status).toBe(404);
    expect((await res.json()).error.code).toBe("contract.not_found");
  });
});
