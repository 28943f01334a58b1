// The one Prisma client of a process, kept on globalThis so hot reloads and test files share it.
// Secret columns are omitted by default; code that needs one asks with `omit: { …: false }`.
// A small pg pool beside it, `sqlPool()`, serves the few hot paths that speak SQL themselves.
import "server-only";
import { PrismaPg } from "@prisma/adapter-pg";
import pg from "pg";
import { config } from "../config/env.mjs";
import { PrismaClient } from "./generated/client";

function createClient() {
  const c = config();
  return new PrismaClient({
    // Every wait on PostgreSQL is bounded, so an outage fails a request (503) instead of hanging it:
    // connecting, a statement on the server, and a reply that never comes back over the network.
    adapter: new PrismaPg({
      connectionString: c.DATABASE_URL,
      max: c.DB_POOL_MAX,
      connectionTimeoutMillis: c.DB_CONNECT_TIMEOUT_MS,
      statement_timeout: c.DB_STATEMENT_TIMEOUT_MS,
      query_timeout: c.DB_STATEMENT_TIMEOUT_MS + 5_000,
      keepAlive: true,
    }),
    omit: { user: { passwordHash: true } },
  });
}

type Db = ReturnType<typeof createClient>;
const holder = globalThis as unknown as { openvibeDb?: Db; openvibeSqlPool?: pg.Pool };

export const db: Db = (holder.openvibeDb ??= createClient());

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

export * from "./generated/client";

/** The client inside `db.$transaction(async (tx) => …)`; `db` itself also fits where no transaction is needed. */
export type DbTx = Omit<Db, "$connect" | "$disconnect" | "$on" | "$transaction" | "$extends">;
