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

const holder = globalThis as unknown as { openvibeSqlPool?: pg.Pool };

/**
 * The pool for raw SQL on hot paths (agent calls), bounded like the client's and half its size, so
 * those statements skip the ORM's work per query. Idle connections never keep a process alive,
 * and a connection PostgreSQL ends is dropped, not thrown.
 */
export function sqlPool(): pg.Pool {
  if (holder.openvibeSqlPool && !holder.openvibeSqlPool.ended) return holder.openvibeSqlPool;
  const c = config();
  const pool = new pg.Pool({
    connectionString: c.DATABASE_URL,
    max: Math.max(2, Math.ceil(c.DB_POOL_MAX / 2)),
    connectionTimeoutMillis: c.DB_CONNECT_TIMEOUT_MS,
    statement_timeout: c.DB_STATEMENT_TIMEOUT_MS,
    query_timeout: c.DB_STATEMENT_TIMEOUT_MS + 5_000,
    keepAlive: true,
    allowExitOnIdle: true,
  });
  pool.on("error", () => undefined);
  return (holder.openvibeSqlPool = pool);
}
