// The one Prisma client of a process, kept on globalThis so hot reloads and test files share it.
// Secret columns are omitted by default; code that needs one asks with `omit: { …: false }`.
// Its pg pool is also lent, as `sqlPool()`, to the few hot paths that speak SQL themselves.
import "server-only";
import { PrismaPg } from "@prisma/adapter-pg";
import pg from "pg";
import { config } from "../config/env.mjs";
import { PrismaClient } from "./generated/client";

function createPool() {
  const c = config();
  // Every wait on PostgreSQL is bounded, so an outage fails a request (503) instead of hanging it:
  // connecting, a statement on the server, and a reply that never comes back over the network.
  return new pg.Pool({
    connectionString: c.DATABASE_URL,
    max: c.DB_POOL_MAX,
    connectionTimeoutMillis: c.DB_CONNECT_TIMEOUT_MS,
    statement_timeout: c.DB_STATEMENT_TIMEOUT_MS,
    query_timeout: c.DB_STATEMENT_TIMEOUT_MS + 5_000,
    keepAlive: true,
  });
}

function createClient(pool: pg.Pool) {
  return new PrismaClient({
    // $disconnect ends the pool; a client used again after it opens a pool of its own.
    adapter: new PrismaPg(pool, { disposeExternalPool: true }),
    omit: { user: { passwordHash: true } },
  });
}

type Db = ReturnType<typeof createClient>;
const holder = globalThis as unknown as { openvibeDb?: Db; openvibePool?: pg.Pool };

holder.openvibePool ??= createPool();
export const db: Db = (holder.openvibeDb ??= createClient(holder.openvibePool));

/** The pool under `db` (a fresh one once `db.$disconnect()` ended it), for raw SQL on hot paths. */
export function sqlPool(): pg.Pool {
  if (holder.openvibePool!.ended) holder.openvibePool = createPool();
  return holder.openvibePool!;
}

export * from "./generated/client";

/** The client inside `db.$transaction(async (tx) => …)`; `db` itself also fits where no transaction is needed. */
export type DbTx = Omit<Db, "$connect" | "$disconnect" | "$on" | "$transaction" | "$extends">;
