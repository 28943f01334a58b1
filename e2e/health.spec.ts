// Health and metrics on the real production server (next start, built): the probes answer, and
// /api/metrics is served to this machine's loopback socket — which shows instrumentation.ts's
// socket hook running inside Next — with request durations labelled by route pattern.
import { expect, test } from "playwright/test";

test("liveness and readiness answer on the running server", async ({ request }) => {
  const live = await request.get("/api/health/live");
  expect(live.status()).toBe(200);
  expect(await live.json()).toEqual({ status: "live" });

  const ready = await request.get("/api/health/ready");
  const body = (await ready.json()) as { status: string; reason?: string; checks: Record<string, { ok: boolean }> };
  expect(body.reason).toBeUndefined();
  expect(ready.status()).toBe(200);
  expect(Object.fromEntries(Object.entries(body.checks).map(([k, v]) => [k, v.ok]))).toEqual({
    process: true,
    database: true,
    migrations: true,
    redis: true,
    queues: true,
  });
});

test("metrics are served to loopback, with one series per route pattern", async ({ request }) => {
  await request.get("/api/v1/steps/not-a-step-id");
  const res = await request.get("/api/metrics", { headers: { "x-forwarded-for": "203.0.113.50" } });
  expect(res.status()).toBe(200);
  expect(res.headers()["content-type"]).toMatch(/^text\/plain; version=0\.0\.4/);
  const text = await res.text();
  expect(text).toMatch(
    /^openvibe_http_request_duration_seconds_count\{method="GET",route="\/api\/v1\/steps\/\[id\]",status="401"\} \d+$/m,
  );
  expect(text).not.toContain("not-a-step-id");
  expect(text).toMatch(/^openvibe_metrics_source_up\{source="postgresql"\} 1$/m);
  expect(text).toMatch(/^openvibe_queue_lag_seconds\{queue="scan"\} /m);
});
