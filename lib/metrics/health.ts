// Readiness: can this web process do its work right now? PostgreSQL answers, every committed
// migration is applied, Redis answers, and no queue has a job overdue for longer than
// HEALTH_MAX_QUEUE_LAG_MS (which means no worker host is taking jobs). Every check is bounded in
// time, so a store that is down gives a 503 within seconds, never a request that hangs.
import "server-only";
import path from "node:path";
import { config } from "../config/env.mjs";
import { APPLIED_MIGRATIONS_SQL, migrationNames } from "../db/migration-names";
import { isDraining } from "./draining";
import { PROBE_TIMEOUT_MS, probePool, probeRedis, redisReady } from "./probe-connections";
import { allQueueStats } from "./queues";
import { cached, ProbeTimeoutError, withTimeout } from "./with-timeout";

export type CheckResult = { ok: boolean; ms: number; message?: string };

export type Readiness = {
  ready: boolean;
  /** Why not, in one line for a person (absent when ready). */
  reason?: string;
  checks: {
    process: CheckResult;
    database: CheckResult;
    migrations: CheckResult & { pending?: string[] };
    redis: CheckResult;
    queues: CheckResult & { lagMs?: Record<string, number> };
  };
};

/** A client should ask again after this many seconds. */
export const READY_RETRY_AFTER_S = 5;
// Concurrent and back-to-back probes share one result for this long.
const READINESS_TTL_MS = 1_000;

let expectedMigrations: string[] | undefined;

/** The committed migrations this build expects (next start, the workers and tests run from the repo root). */
function expected(): string[] {
  expectedMigrations ??= migrationNames(path.join(process.cwd(), "prisma", "migrations"));
  return expectedMigrations;
}

/** A store's failure in words, without hosts or internals (the endpoint is public). */
function describe(store: string, err: unknown): string {
  if (err instanceof ProbeTimeoutError) return `${store} did not answer within ${err.ms} ms`;
  const code = (err as { code?: unknown } | undefined)?.code;
  if (code === "ECONNREFUSED") return `${store} refused the connection`;
  if (code === "ENOTFOUND" || code === "EAI_AGAIN") return `${store}'s host name does not resolve`;
  if (code === "57P01" || code === "57P03") return `${store} is shutting down or starting up`;
  if (typeof code === "string" && /^[A-Z0-9_]{2,20}$/.test(code)) return `${store} failed (${code})`;
  return `${store} did not answer`;
}

async function timed<T>(fn: () => Promise<T>): Promise<{ value?: T; error?: unknown; ms: number }> {
  const started = performance.now();
  try {
    const value = await fn();
    return { value, ms: Math.round(performance.now() - started) };
  } catch (error) {
    return { error, ms: Math.round(performance.now() - started) };
  }
}

async function databaseChecks(): Promise<Pick<Readiness["checks"], "database" | "migrations">> {
  const ping = await timed(() => withTimeout(probePool().query("select 1"), PROBE_TIMEOUT_MS, "PostgreSQL"));
  if (ping.error) {
    return {
      database: { ok: false, ms: ping.ms, message: describe("PostgreSQL", ping.error) },
      migrations: { ok: false, ms: 0, message: "not checked: PostgreSQL is not answering" },
    };
  }
  const applied = await timed(async () => {
    const table = await withTimeout(
      probePool().query<{ t: string | null }>("select to_regclass('public._prisma_migrations')::text as t"),
      PROBE_TIMEOUT_MS,
      "PostgreSQL",
    );
    if (!table.rows[0]?.t) return new Set<string>();
    const rows = await withTimeout(
      probePool().query<{ migration_name: string }>(APPLIED_MIGRATIONS_SQL),
      PROBE_TIMEOUT_MS,
      "PostgreSQL",
    );
    return new Set(rows.rows.map((r) => r.migration_name));
  });
  const database = { ok: true, ms: ping.ms };
  if (applied.error) {
    return { database, migrations: { ok: false, ms: applied.ms, message: describe("PostgreSQL", applied.error) } };
  }
  const names = expected();
  if (!names.length) {
    return {
      database,
      migrations: {
        ok: false,
        ms: applied.ms,
        message: "no migrations found under prisma/migrations: the deployment is incomplete",
      },
    };
  }
  const pending = names.filter((n) => !applied.value!.has(n));
  return {
    database,
    migrations: pending.length
      ? {
          ok: false,
          ms: applied.ms,
          pending,
          message: `${pending.length} migration(s) not applied: run npm run db:migrate`,
        }
      : { ok: true, ms: applied.ms },
  };
}

async function redisChecks(): Promise<Pick<Readiness["checks"], "redis" | "queues">> {
  const client = probeRedis();
  const ping = await timed(() =>
    withTimeout(
      redisReady(client).then(() => client.ping()),
      PROBE_TIMEOUT_MS,
      "Redis",
    ),
  );
  if (ping.error) {
    return {
      redis: { ok: false, ms: ping.ms, message: describe("Redis", ping.error) },
      queues: { ok: false, ms: 0, message: "not checked: Redis is not answering" },
    };
  }
  const stats = await timed(() => withTimeout(allQueueStats(), PROBE_TIMEOUT_MS, "Redis"));
  const redis = { ok: true, ms: ping.ms };
  if (stats.error) return { redis, queues: { ok: false, ms: stats.ms, message: describe("Redis", stats.error) } };
  const limit = config().HEALTH_MAX_QUEUE_LAG_MS;
  const lagMs = Object.fromEntries(stats.value!.map((s) => [s.queue, s.lagMs]));
  const late = stats.value!.filter((s) => s.lagMs > limit).map((s) => `${s.queue} (${Math.round(s.lagMs / 1000)} s)`);
  return {
    redis,
    queues: late.length
      ? {
          ok: false,
          ms: stats.ms,
          lagMs,
          message: `jobs overdue for more than ${limit / 1000} s in ${late.join(", ")}: is a worker host running?`,
        }
      : { ok: true, ms: stats.ms, lagMs },
  };
}

async function evaluate(): Promise<Readiness> {
  const draining = isDraining();
  const [db, rd] = await Promise.all([databaseChecks(), redisChecks()]);
  const checks: Readiness["checks"] = {
    process: draining ? { ok: false, ms: 0, message: "this web process is shutting down" } : { ok: true, ms: 0 },
    ...db,
    ...rd,
  };
  const failed = Object.values(checks).filter((c) => !c.ok && !c.message?.startsWith("not checked"));
  return failed.length
    ? { ready: false, reason: failed.map((c) => c.message).join("; "), checks }
    : { ready: true, checks };
}

const readinessCache = cached(READINESS_TTL_MS, evaluate);

export function readiness(): Promise<Readiness> {
  return readinessCache.get();
}

/** For tests that change a store between two probes. */
export function forgetReadiness(): void {
  readinessCache.clear();
}
