// Raw SQL run as a named prepared statement on the raw-SQL pool, for hot reads whose planning costs
// more than their execution (a skill page's one statement): each connection plans it once and keeps
// the plan. Rows come back typed as Prisma's $queryRaw gives them: bigint as BigInt, timestamp as a
// Date in UTC.
import "server-only";
import { createHash } from "node:crypto";
import pg from "pg";
import type { Prisma } from "./generated/client";
import { searchPool, sqlPool, utcText } from "./pool";

const INT8 = 20;
const TIMESTAMP = 1114;

const types = {
  getTypeParser(oid: number, format?: "text" | "binary") {
    if (oid === INT8) return (value: string) => BigInt(value);
    if (oid === TIMESTAMP) return (value: string) => new Date(`${value.replace(" ", "T")}Z`);
    return pg.types.getTypeParser(oid, format);
  },
};

const valuesOf = (sql: Prisma.Sql) => sql.values.map((v) => (v instanceof Date ? utcText(v) : v));

/** The rows of `sql`, prepared under a name made from its text (so each shape is planned once per connection). */
export async function preparedRows<T>(sql: Prisma.Sql): Promise<T[]> {
  const text = sql.text;
  const name = `p-${createHash("sha1").update(text).digest("hex").slice(0, 24)}`;
  const { rows } = await sqlPool().query({ name, text, values: valuesOf(sql), types });
  return rows as T[];
}

/**
 * The rows of `sql` as a one-off statement on the search pool, typed the same way: planned for its
 * own values every time (a search or browse page and its count, a LIKE prefix), without the ORM's
 * work per query and value.
 */
export async function queryRows<T>(sql: Prisma.Sql): Promise<T[]> {
  const { rows } = await searchPool().query({ text: sql.text, values: valuesOf(sql), types });
  return rows as T[];
}
