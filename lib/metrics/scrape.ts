// GET /api/metrics: the registry's text, with the store gauges filled at scrape time. Queue and
// database numbers are read through the probe connections with a short cache (so several
// scrapers, or a scrape storm, cost one set of queries), and a store that is down costs at most
// the probe timeout: its series are left out and openvibe_metrics_source_up says 0.
import "server-only";
import { Gauge, type Registry } from "prom-client";
import { databaseStats, DISPATCH_WINDOW_MS, ledgerStats } from "./database-stats";
import { PROBE_TIMEOUT_MS, probeRedis, redisReady } from "./probe-connections";
import { allQueueStats } from "./queues";
import { metrics } from "./registry";
import { cached, withTimeout } from "./with-timeout";

const QUEUES_TTL_MS = 5_000;
const DATABASE_TTL_MS = 15_000;
/** The ledger totals sum the whole ledger: kept for a minute. */
export const LEDGER_TTL_MS = 60_000;
const SCRAPE_PART_TIMEOUT_MS = PROBE_TIMEOUT_MS + 500;

const queues = cached(QUEUES_TTL_MS, () =>
  withTimeout(
    redisReady(probeRedis()).then(() => allQueueStats()),
    SCRAPE_PART_TIMEOUT_MS,
    "Redis",
  ),
);
const database = cached(DATABASE_TTL_MS, () => withTimeout(databaseStats(), SCRAPE_PART_TIMEOUT_MS, "PostgreSQL"));
const ledger = cached(LEDGER_TTL_MS, () => withTimeout(ledgerStats(), SCRAPE_PART_TIMEOUT_MS, "PostgreSQL"));

/** Forgets cached store numbers (tests that change the stores between scrapes). */
export function forgetStoreStats(): void {
  queues.clear();
  database.clear();
  ledger.clear();
}

async function settle<T>(source: { get: () => Promise<T> }): Promise<T | undefined> {
  try {
    return await source.get();
  } catch {
    return undefined;
  }
}

function gauge<L extends string>(
  registry: Registry,
  name: string,
  help: string,
  labelNames: readonly L[],
  fill: (g: Gauge<L>) => Promise<void>,
) {
  return new Gauge<L>({
    name,
    help,
    labelNames,
    registers: [registry],
    async collect() {
      this.reset();
      await fill(this);
    },
  });
}

function registerStoreGauges(registry: Registry): void {
  gauge(
    registry,
    "openvibe_metrics_source_up",
    "Whether the store answered this scrape (1) or not (0).",
    ["source"],
    async (g) => {
      const [q, d] = await Promise.all([settle(queues), settle(database)]);
      g.set({ source: "redis" }, q ? 1 : 0);
      g.set({ source: "postgresql" }, d ? 1 : 0);
    },
  );
  gauge(registry, "openvibe_queue_jobs", "Jobs in each BullMQ queue by state.", ["queue", "state"], async (g) => {
    for (const q of (await settle(queues)) ?? []) {
      for (const [state, count] of Object.entries(q.counts)) g.set({ queue: q.queue, state }, count);
    }
  });
  gauge(
    registry,
    "openvibe_queue_lag_seconds",
    "How long the job that has been due the longest has waited in each queue (0 when none is overdue).",
    ["queue"],
    async (g) => {
      for (const q of (await settle(queues)) ?? []) g.set({ queue: q.queue }, q.lagMs / 1000);
    },
  );
  gauge(registry, "openvibe_run_jobs", "Run jobs by state.", ["state"], async (g) => {
    for (const r of (await settle(database))?.jobsByState ?? []) g.set({ state: r.state }, r.count);
  });
  gauge(
    registry,
    "openvibe_skill_versions",
    "Skill versions by scan verdict (scanning until stored).",
    ["status"],
    async (g) => {
      for (const r of (await settle(database))?.versionsByStatus ?? []) g.set({ status: r.status }, r.count);
    },
  );
  gauge(
    registry,
    "openvibe_links_online",
    "Links seen within the online window, not revoked, by runner switch and pool offer.",
    ["runner", "pool"],
    async (g) => {
      for (const r of (await settle(database))?.linksOnline ?? []) {
        g.set({ runner: r.runner ? "on" : "off", pool: String(r.pool) }, r.count);
      }
    },
  );
  gauge(
    registry,
    "openvibe_dispatch_latency_seconds",
    `Run job created → placed on a Link, quantiles over the jobs placed in the last ${DISPATCH_WINDOW_MS / 60_000} minutes.`,
    ["quantile"],
    async (g) => {
      for (const q of (await settle(database))?.dispatch.quantiles ?? [])
        g.set({ quantile: String(q.quantile) }, q.seconds);
    },
  );
  gauge(
    registry,
    "openvibe_dispatch_placed_jobs",
    `Run jobs placed in the last ${DISPATCH_WINDOW_MS / 60_000} minutes (the sample behind openvibe_dispatch_latency_seconds).`,
    [],
    async (g) => {
      const stats = await settle(database);
      if (stats) g.set(stats.dispatch.placed);
    },
  );
  gauge(registry, "openvibe_ledger_entries", "Ledger entries by kind.", ["kind"], async (g) => {
    for (const r of (await settle(ledger)) ?? []) g.set({ kind: r.kind }, r.entries);
  });
  gauge(
    registry,
    "openvibe_ledger_amount_micros",
    "Sum of ledger amounts by kind, in micro-units.",
    ["kind"],
    async (g) => {
      for (const r of (await settle(ledger)) ?? []) g.set({ kind: r.kind }, Number(r.amountMicros));
    },
  );
}

/** The Prometheus text exposition of this process, and its content type. */
export async function scrape(): Promise<{ body: string; contentType: string }> {
  const m = metrics();
  if (!m.storeGauges) {
    m.storeGauges = true;
    registerStoreGauges(m.registry);
  }
  return { body: await m.registry.metrics(), contentType: m.registry.contentType };
}
