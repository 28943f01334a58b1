// The small pg pool beside the Prisma client, for the few hot paths that speak SQL themselves.
import "server-only";
import pg from "pg";
import { config } from "../config/env.mjs";

/** A Date as PostgreSQL `timestamp` text in UTC, as Prisma stores a DateTime: for raw statements. */
export const utcText = (d: Date) => d.toISOString().replace("Z", "");

/**
 * PostgreSQL answered with an error, so the statement wrote nothing (a CHECK, a duplicate key, a
 * deadlock). A lost connection is not one: the statement may have committed.
 */
export const refusedByPostgres = (err: unknown) => err instanceof pg.DatabaseError;

const holder = globalThis as unknown as { openvibeSqlPool?: pg.Pool; openvibeSearchPool?: pg.Pool };

function makePool(max: number, options?: string): pg.Pool {
  const c = config();
  const pool = new pg.Pool({
    connectionString: c.DATABASE_URL,
    max,
    connectionTimeoutMillis: c.DB_CONNECT_TIMEOUT_MS,
    statement_timeout: c.DB_STATEMENT_TIMEOUT_MS,
    query_timeout: c.DB_STATEMENT_TIMEOUT_MS + 5_000,
    keepAlive: true,
    allowExitOnIdle: true,
    ...(options ? { options } : {}),
  });
  pool.on("error", () => undefined);
  return pool;
}

export const HOT_PATH_SETTINGS = "-c plan_cache_mode=force_generic_plan -c enable_seqscan=off";

/**
 * The pool for raw SQL on hot paths (agent calls, Links), bounded like the client's and half its
 * size, so those statements skip the ORM's work per query. Idle connections never keep a process
 * alive, and a connection PostgreSQL ends is dropped, not thrown. Its named statements are planned
 * once per connection: left to choose, PostgreSQL planned a call's context statement again on
 * every call (1.2–1.5 ms of its CPU in each bind, measured with log_min_duration_statement), as a
 * plan for the actual array lengths always looks cheaper than the generic one. None of them has a
 * value whose best plan differs (no LIKE pattern, no text search): those go to `searchPool`.
 * A plan made while a table is small would read it whole (a sequential scan looks cheapest then)
 * and keep doing so as it grows: every statement here reaches its rows by key, so sequential scans
 * are priced out (PostgreSQL still takes one where no index serves).
 */
export function sqlPool(): pg.Pool {
  if (holder.openvibeSqlPool && !holder.openvibeSqlPool.ended) return holder.openvibeSqlPool;
  const pool = makePool(Math.max(2, Math.ceil(config().DB_POOL_MAX / 2)), HOT_PATH_SETTINGS);
  return (holder.openvibeSqlPool = pool);
}

/** A smaller pool whose statements are planned for their values each time: searches, with their LIKE prefixes and text queries. */
export function searchPool(): pg.Pool {
  if (holder.openvibeSearchPool && !holder.openvibeSearchPool.ended) return holder.openvibeSearchPool;
  return (holder.openvibeSearchPool = makePool(Math.max(2, Math.ceil(config().DB_POOL_MAX / 4))));
}
