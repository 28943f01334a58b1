import { describe, expect, it, vi } from "vitest";

vi.stubEnv("DATABASE_URL", "postgresql://postgres@127.0.0.1:5432/unused");
vi.stubEnv("REDIS_URL", "redis://127.0.0.1:6379/0");
vi.stubEnv("AUTH_SECRET", "x".repeat(32));
vi.stubEnv("LOG_LEVEL", "error");

const { route } = await import("../http/route");
const { AppError } = await import("../errors");
const { metrics } = await import("./registry");

async function observed(routeName: string, status: string) {
  const json = await metrics().httpDuration.get();
  return json.values.find(
    (v) =>
      v.metricName === "openvibe_http_request_duration_seconds_count" &&
      v.labels.route === routeName &&
      v.labels.status === status,
  )?.value;
}

const ctx = (params: Record<string, string>) => ({ params: Promise.resolve(params) });

describe("request metrics in route()", () => {
  it("counts each request under its route pattern and status, errors included", async () => {
    const handler = route({
      handler: async ({ params }) => {
        if (params.id === "missing") throw new AppError("step.not_found", "That step was not found.");
        return { id: params.id };
      },
    });
    const before = (await observed("/api/v1/things/[id]", "200")) ?? 0;
    await handler(new Request("http://localhost/api/v1/things/abc"), ctx({ id: "abc" }));
    await handler(new Request("http://localhost/api/v1/things/def"), ctx({ id: "def" }));
    await handler(new Request("http://localhost/api/v1/things/missing"), ctx({ id: "missing" }));
    expect(await observed("/api/v1/things/[id]", "200")).toBe(before + 2);
    expect(await observed("/api/v1/things/[id]", "404")).toBe(1);
    expect(await observed("/api/v1/things/abc", "200")).toBeUndefined();
  });

  it("puts the time a handler took into the histogram", async () => {
    const handler = route({
      handler: async () => {
        await new Promise((r) => setTimeout(r, 60));
        return { ok: true };
      },
    });
    await handler(new Request("http://localhost/api/slow"), ctx({}));
    const json = await metrics().httpDuration.get();
    const sum = json.values.find(
      (v) => v.metricName === "openvibe_http_request_duration_seconds_sum" && v.labels.route === "/api/slow",
    )?.value;
    expect(sum).toBeGreaterThanOrEqual(0.05);
    const fast = json.values.find(
      (v) =>
        v.metricName === "openvibe_http_request_duration_seconds_bucket" &&
        v.labels.route === "/api/slow" &&
        (v.labels as Record<string, unknown>).le === 0.025,
    )?.value;
    expect(fast).toBe(0);
  });
});
