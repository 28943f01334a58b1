// The one Prisma client of a process, kept on globalThis so hot reloads and test files share it.
// Secret columns are omitted by default; code that needs one asks with `omit: { …: false }`.
import "server-only";
import { PrismaPg } from "@prisma/adapter-pg";
import { config } from "../config/env.mjs";
import { PrismaClient } from "./generated/client";

function createClient() {
  return new PrismaClient({
    adapter: new PrismaPg({ connectionString: config().DATABASE_URL, max: 10 }),
    omit: { user: { passwordHash: true } },
  });
}

type Db = ReturnType<typeof createClient>;
const holder = globalThis as unknown as { openvibeDb?: Db };

export const db: Db = (holder.openvibeDb ??= createClient());

export * from "./generated/client";

/** The client inside `db.$transaction(async (tx) => …)`; `db` itself also fits where no transaction is needed. */
export type DbTx = Omit<Db, "$connect" | "$disconnect" | "$on" | "$transaction" | "$extends">;
