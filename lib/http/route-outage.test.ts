// The wrapper's outage mapping: an error that says a store is down answers 503 with Retry-After
// (lib/config RETRY_AFTER_S), and so does an AppError the code raises for the same reason.
import { describe, expect, it, vi } from "vitest";

vi.stubEnv("DATABASE_URL", "postgresql://postgres@127.0.0.1:5432/unused");
vi.stubEnv("REDIS_URL", "redis://127.0.0.1:6379/0");
vi.stubEnv("AUTH_SECRET", "x".repeat(32));
vi.stubEnv("LOG_LEVEL", "error");
vi.stubEnv("RETRY_AFTER_S", "7");

const { route } = await import("./route");
const { serviceUnavailable } = await import("../errors/outage");

const failingWith = (err: unknown) =>
  route({
    handler: async () => {
      throw err;
    },
  });

describe("route() during an outage", () => {
  it("answers a refused connection with 503 service.unavailable and Retry-After", async () => {
    const refused = Object.assign(new Error("connect ECONNREFUSED 127.0.0.1:5432"), {
      code: "ECONNREFUSED",
      errno: -111,
      syscall: "connect",
    });
    const res = await failingWith(refused)(new Request("http://localhost/x", { headers: { "x-request-id": "r-1" } }));
    expect(res.status).toBe(503);
    expect(res.headers.get("retry-after")).toBe("7");
    expect(res.headers.get("x-request-id")).toBe("r-1");
    const body = await res.json();
    expect(body.error.code).toBe("service.unavailable");
    expect(JSON.stringify(body)).not.toContain("5432");
  });

  it("adds Retry-After to a 503 AppError thrown by the code itself", async () => {
    const res = await failingWith(serviceUnavailable(7))(new Request("http://localhost/x"));
    expect(res.status).toBe(503);
    expect(res.headers.get("retry-after")).toBe("7");
  });

  it("still answers a plain bug with 500 and no Retry-After", async () => {
    const res = await failingWith(new TypeError("x is undefined"))(new Request("http://localhost/x"));
    expect(res.status).toBe(500);
    expect(res.headers.get("retry-after")).toBeNull();
  });
});
