// Health and metrics against the real PostgreSQL and Redis: readiness with every reason it can
// give (pending migrations, overdue queues, a store that refuses or hangs), within bounded time,
// and the Prometheus scrape with request durations, queue depth and lag, and the numbers that come
// from the database — served only to a loopback socket.
import { createServer, type Server, type Socket } from "node:net";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { setupIntegration, type IntegrationEnv } from "../helpers/integration";
import { serveRoutes } from "../helpers/route-server";

let env: IntegrationEnv;
let server: { url: string; close(): Promise<void> };
let metricsLib: typeof import("../../lib/metrics");
let queues: { scan: import("bullmq").Queue; dispatch: import("bullmq").Queue };

const DEMO = path.resolve(import.meta.dirname, "../../scripts/demo/skills");

async function getReady() {
  metricsLib.forgetReadiness();
  const res = await fetch(`${server.url}/api/health/ready`);
  return { status: res.status, retryAfter: res.headers.get("retry-after"), body: (await res.json()) as ReadyBody };
}
type ReadyBody = {
  status: string;
  reason?: string;
  checks: Record<string, { ok: boolean; message?: string; pending?: string[]; lagMs?: Record<string, number> }>;
};

async function scrapeText(headers: Record<string, string> = {}) {
  metricsLib.forgetStoreStats();
  const res = await fetch(`${server.url}/api/metrics`, { headers });
  return { status: res.status, type: res.headers.get("content-type"), text: await res.text() };
}

/** The value of one series in Prometheus text, e.g. sample(text, 'openvibe_run_jobs{state="placed"}'). */
function sample(text: string, series: string): number | undefined {
  const line = text.split("\n").find((l) => l.startsWith(series + " "));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}

beforeAll(async () => {
  vi.stubEnv("HEALTH_MAX_QUEUE_LAG_MS", "1000");
  env = await setupIntegration("health");
  metricsLib = await import("../../lib/metrics");
  const { installPeerAddressHook } = await import("../../lib/http/peer-address");
  installPeerAddressHook();
  const live = await import("../../app/api/health/live/route");
  const ready = await import("../../app/api/health/ready/route");
  const metricsRoute = await import("../../app/api/metrics/route");
  server = await serveRoutes([
    { method: "GET", pattern: "/api/health/live", handler: live.GET },
    { method: "GET", pattern: "/api/health/ready", handler: ready.GET },
    { method: "GET", pattern: "/api/metrics", handler: metricsRoute.GET },
  ]);
  const { scanQueue } = await import("../../lib/registry/scan-queue");
  const { dispatchQueue } = await import("../../lib/runs/timers");
  queues = { scan: scanQueue(), dispatch: dispatchQueue() };
}, 120_000);

afterAll(async () => {
  await server?.close();
  await queues?.scan.close();
  await queues?.dispatch.close();
  await metricsLib?.closeProbes();
  await env?.teardown();
});

describe("GET /api/health/live", () => {
  it("answers 200 without touching a store", async () => {
    const res = await fetch(`${server.url}/api/health/live`);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ status: "live" });
  });
});

describe("GET /api/health/ready", () => {
  it("is ready when PostgreSQL and Redis answer, every migration is applied and no queue is late", async () => {
    const { status, body, retryAfter } = await getReady();
    expect(body.reason).toBeUndefined();
    expect(status).toBe(200);
    expect(retryAfter).toBeNull();
    expect(body.status).toBe("ready");
    for (const name of ["process", "database", "migrations", "redis", "queues"])
      expect(body.checks[name]?.ok).toBe(true);
    expect(Object.keys(body.checks.queues!.lagMs!).sort()).toEqual(["dispatch", "scan"]);
  });

  it("answers 503 with Retry-After and the migration's name while one is not applied", async () => {
    const [last] = await env.db.$queryRawUnsafe<Array<{ id: string; migration_name: string }>>(
      `select id, migration_name from _prisma_migrations order by migration_name desc limit 1`,
    );
    await env.db.$executeRawUnsafe(`update _prisma_migrations set rolled_back_at = now() where id = $1`, last!.id);
    try {
      const { status, body, retryAfter } = await getReady();
      expect(status).toBe(503);
      expect(retryAfter).toBe("5");
      expect(body.status).toBe("not_ready");
      expect(body.checks.migrations).toMatchObject({ ok: false, pending: [last!.migration_name] });
      expect(body.reason).toMatch(/1 migration\(s\) not applied: run npm run db:migrate/);
      expect(body.checks.database!.ok).toBe(true);
    } finally {
      await env.db.$executeRawUnsafe(`update _prisma_migrations set rolled_back_at = null where id = $1`, last!.id);
    }
    expect((await getReady()).status).toBe(200);
  });

  it("answers 503 naming the queue when a waiting job is older than the lag limit (no worker is running here)", async () => {
    await queues.scan.add("scan.version", { versionId: "lag-probe" }, { jobId: "lag-probe" });
    await new Promise((r) => setTimeout(r, 1_300));
    const { status, body } = await getReady();
    expect(status).toBe(503);
    expect(body.checks.queues!.ok).toBe(false);
    expect(body.checks.queues!.lagMs!.scan).toBeGreaterThanOrEqual(1_000);
    expect(body.checks.queues!.lagMs!.dispatch).toBe(0);
    expect(body.reason).toMatch(/overdue .* in scan \(\d+ s\): is a worker host running\?/);

    const scraped = await scrapeText();
    expect(sample(scraped.text, 'openvibe_queue_jobs{queue="scan",state="wait"}')).toBe(1);
    expect(sample(scraped.text, 'openvibe_queue_lag_seconds{queue="scan"}')).toBeGreaterThanOrEqual(1);

    await queues.scan.obliterate({ force: true });
    expect((await getReady()).status).toBe(200);
  });

  it("counts a delayed job that is past due (timers no one fires) as lag, and one not yet due as none", async () => {
    await queues.dispatch.add("dispatch.jobs_due", { second: 1 }, { delay: 100, jobId: "overdue-timer" });
    await queues.dispatch.add("dispatch.jobs_due", { second: 2 }, { delay: 3_600_000, jobId: "future-timer" });
    await new Promise((r) => setTimeout(r, 1_400));
    const { status, body } = await getReady();
    expect(status).toBe(503);
    expect(body.checks.queues!.lagMs!.dispatch).toBeGreaterThanOrEqual(1_200);
    expect(body.checks.queues!.lagMs!.dispatch).toBeLessThan(60_000);
    await queues.dispatch.remove("overdue-timer");
    const after = await getReady();
    expect(after.status).toBe(200);
    expect(after.body.checks.queues!.lagMs!.dispatch).toBe(0);
    await queues.dispatch.obliterate({ force: true });
  });
});

describe("GET /api/metrics", () => {
  beforeAll(async () => {
    const { createUser, getDefaultProject } = await import("../../lib/auth/users");
    const { publishSkill, scanVersion } = await import("../../lib/registry");
    const { loadBundle } = await import("../../lib/contracts");
    const { recordTopUp } = await import("../../lib/billing/ledger");
    const person = await createUser({ email: "metrics@example.test", name: "Metrics", password: null });
    const projectId = (await getDefaultProject(person.id))!.id;
    const bundle = await loadBundle(path.join(DEMO, "text-tools"));
    if (!bundle.ok) throw new Error("demo bundle does not load");
    const { versionId } = await publishSkill({ ownerId: person.id, document: bundle.document, scan: "none" });
    expect((await scanVersion(versionId)).status).toBe("passed");
    await recordTopUp({ userId: person.id, amountMicros: 2_500_000n, paymentId: "metrics-topup-1", memo: "test" });
    await recordTopUp({ userId: person.id, amountMicros: 500_000n, paymentId: "metrics-topup-2", memo: "test" });
    await env.db.link.create({
      data: { userId: person.id, name: "on", publicKey: "m".repeat(43), runnerEnabled: true, lastSeenAt: new Date() },
    });
    await env.db.link.create({
      data: {
        userId: person.id,
        name: "long gone",
        publicKey: "n".repeat(43),
        runnerEnabled: true,
        lastSeenAt: new Date(Date.now() - 3_600_000),
      },
    });
    const now = Date.now();
    const job = (createdMsAgo: number, placedMsAgo: number | null, state: "placed" | "queued") =>
      env.db.runJob.create({
        data: {
          userId: person.id,
          projectId,
          versionId,
          tool: "echo",
          class: "function",
          artifactName: "openvibe-skill-runner",
          artifactVersion: "1.0.0",
          inputs: [],
          net: "deny",
          wallMs: 1000,
          memBytes: 134217728n,
          ttlMs: 120_000,
          state,
          createdAt: new Date(now - createdMsAgo),
          placedAt: placedMsAgo === null ? null : new Date(now - placedMsAgo),
          expiresAt: new Date(now + 120_000),
        },
      });
    await job(3_000, 1_000, "placed"); // 2 s to place
    await job(5_000, 1_000, "placed"); // 4 s
    await job(1_000, null, "queued");
    // Placed long ago: outside the latency window.
    await job(7_200_000, 3_600_000, "placed");
  }, 120_000);

  it("serves Prometheus text to a loopback socket: requests, queues and the database's numbers", async () => {
    await fetch(`${server.url}/api/health/live`);
    const { status, type, text } = await scrapeText({ "x-forwarded-for": "203.0.113.9" });
    expect(status).toBe(200);
    expect(type).toMatch(/^text\/plain; version=0\.0\.4/);
    expect(
      sample(text, 'openvibe_http_request_duration_seconds_count{method="GET",route="/api/health/live",status="200"}'),
    ).toBeGreaterThanOrEqual(2);
    expect(text).toMatch(/^process_cpu_seconds_total /m);
    expect(sample(text, 'openvibe_metrics_source_up{source="postgresql"}')).toBe(1);
    expect(sample(text, 'openvibe_metrics_source_up{source="redis"}')).toBe(1);
    for (const queue of ["scan", "dispatch"]) {
      expect(sample(text, `openvibe_queue_jobs{queue="${queue}",state="active"}`)).toBe(0);
      expect(sample(text, `openvibe_queue_lag_seconds{queue="${queue}"}`)).toBe(0);
    }
    expect(sample(text, 'openvibe_run_jobs{state="placed"}')).toBe(3);
    expect(sample(text, 'openvibe_run_jobs{state="queued"}')).toBe(1);
    expect(sample(text, 'openvibe_skill_versions{status="passed"}')).toBe(1);
    expect(sample(text, 'openvibe_links_online{runner="on",pool="false"}')).toBe(1);
    expect(sample(text, "openvibe_dispatch_placed_jobs")).toBe(2);
    expect(sample(text, 'openvibe_dispatch_latency_seconds{quantile="0.5"}')).toBeCloseTo(3, 1);
    expect(sample(text, 'openvibe_dispatch_latency_seconds{quantile="0.99"}')).toBeCloseTo(3.98, 1);
    expect(sample(text, 'openvibe_ledger_entries{kind="topup"}')).toBe(2);
    expect(sample(text, 'openvibe_ledger_amount_micros{kind="topup"}')).toBe(3_000_000);
  });

  it("refuses a request with no known socket (X-Forwarded-For is never trusted)", async () => {
    const { GET } = await import("../../app/api/metrics/route");
    const res = await GET(
      new Request("http://localhost/api/metrics", { headers: { "x-forwarded-for": "127.0.0.1" } }),
      {
        params: Promise.resolve({}),
      },
    );
    expect(res.status).toBe(403);
    expect(((await res.json()) as { error: { code: string } }).error.code).toBe("metrics.local_only");
  });
});

/** A TCP server that accepts connections and never says a word: a store that hangs. */
async function silentServer(): Promise<{ port: number; close(): Promise<void> }> {
  const sockets = new Set<Socket>();
  const s: Server = createServer((socket) => {
    sockets.add(socket);
    socket.on("error", () => {});
  });
  await new Promise<void>((r) => s.listen(0, "127.0.0.1", r));
  return {
    port: (s.address() as AddressInfo).port,
    close: () =>
      new Promise((r) => {
        for (const socket of sockets) socket.destroy();
        s.close(() => r());
      }),
  };
}

async function closedPort(): Promise<number> {
  const s = createServer();
  await new Promise<void>((r) => s.listen(0, "127.0.0.1", r));
  const port = (s.address() as AddressInfo).port;
  await new Promise<void>((r) => s.close(() => r()));
  return port;
}

describe("when the stores are down", () => {
  let realUrls: { database: string; redis: string };
  beforeAll(() => {
    realUrls = { database: process.env.DATABASE_URL!, redis: process.env.REDIS_URL! };
  });
  afterAll(() => {
    // Teardown talks to the real stores again, through fresh modules.
    vi.stubEnv("DATABASE_URL", realUrls.database);
    vi.stubEnv("REDIS_URL", realUrls.redis);
    vi.resetModules();
  });

  async function freshLib(databaseUrl: string, redisUrl: string) {
    await metricsLib.closeProbes();
    (await import("../../lib/metrics/queues")).resetProbeQueues();
    // The registry lives on globalThis; drop it so the fresh modules register gauges that read
    // the fresh config rather than the first one's.
    delete (globalThis as { openvibeMetrics?: unknown }).openvibeMetrics;
    vi.resetModules();
    vi.stubEnv("DATABASE_URL", databaseUrl);
    vi.stubEnv("REDIS_URL", redisUrl);
    return import("../../lib/metrics");
  }

  it("says which store refused, quickly, and metrics still answer with the store marked down", async () => {
    const port = await closedPort();
    const lib = await freshLib(`postgresql://postgres@127.0.0.1:${port}/none`, `redis://127.0.0.1:${port}/0`);
    try {
      const result = await lib.readiness();
      expect(result.ready).toBe(false);
      expect(result.checks.database.message).toBe("PostgreSQL refused the connection");
      expect(result.checks.migrations.message).toMatch(/^not checked/);
      expect(result.checks.redis.message).toMatch(/^Redis (refused the connection|did not answer within 2000 ms)$/);
      expect(result.reason).toMatch(/^PostgreSQL refused the connection; Redis /);
      expect(result.reason).not.toContain(String(port));

      const { body } = await lib.scrape();
      expect(sample(body, 'openvibe_metrics_source_up{source="postgresql"}')).toBe(0);
      expect(sample(body, 'openvibe_metrics_source_up{source="redis"}')).toBe(0);
      expect(body).not.toMatch(/^openvibe_run_jobs\{/m);
    } finally {
      await lib.closeProbes();
    }
  });

  it("never hangs on a store that accepts the connection and then says nothing", async () => {
    const silent = await silentServer();
    const lib = await freshLib(
      `postgresql://postgres@127.0.0.1:${silent.port}/none`,
      `redis://127.0.0.1:${silent.port}/0`,
    );
    try {
      const started = Date.now();
      const result = await lib.readiness();
      const tookMs = Date.now() - started;
      expect(result.ready).toBe(false);
      expect(result.checks.database.message).toBe("PostgreSQL did not answer within 2000 ms");
      expect(result.checks.redis.message).toBe("Redis did not answer within 2000 ms");
      // Bounded: two probe timeouts at most (with wide margin for a loaded machine), not forever.
      expect(tookMs).toBeLessThan(15_000);
    } finally {
      await lib.closeProbes();
      await silent.close();
    }
  }, 30_000);
});
