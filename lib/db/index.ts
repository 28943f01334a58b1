// The one Prisma client of a process, kept on globalThis so hot reloads and test files share it.
// Secret columns are omitted by default; code that needs one asks with `omit: { …: false }`.
// A small pg pool beside it, `sqlPool()` (./pool.ts), serves the few hot paths that speak SQL
// themselves; `preparedRows()` (./prepared.ts) runs a Prisma.Sql there as a prepared statement.
import "server-only";
import { PrismaPg } from "@prisma/adapter-pg";
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
const holder = globalThis as unknown as { openvibeDb?: Db };

export const db: Db = (holder.openvibeDb ??= createClient());

export { refusedByPostgres, sqlPool, utcText } from "./pool";
export { preparedRows, queryRows } from "./prepared";

export * from "./generated/client";

/** The client inside `db.$transaction(async (tx) => …)`; `db` itself also fits where no transaction is needed. */
export type DbTx = Omit<Db, "$connect" | "$disconnect" | "$on" | "$transaction" | "$extends">;
