// What backup and restore ask PostgreSQL directly: the server's version, every table's row count,
// the applied migrations, and whether a database is empty.
import type pg from "pg";
import { APPLIED_MIGRATIONS_SQL } from "../db/migration-names";

export async function serverVersion(client: pg.Client): Promise<{ version: string; major: number }> {
  const row = (
    await client.query<{ v: string; n: string }>(
      "select current_setting('server_version') as v, current_setting('server_version_num') as n",
    )
  ).rows[0]!;
  return { version: row.v.split(" ")[0]!, major: Math.floor(Number(row.n) / 10_000) };
}

const quoteIdent = (name: string) => `"${name.replace(/"/g, '""')}"`;

/** Row count of every table in the public schema (in the client's current snapshot). */
export async function tableCounts(client: pg.Client): Promise<Record<string, number>> {
  const tables = await client.query<{ name: string }>(
    "select tablename as name from pg_tables where schemaname = 'public' order by tablename",
  );
  const counts: Record<string, number> = {};
  for (const { name } of tables.rows) {
    const r = await client.query<{ n: string }>(`select count(*) as n from public.${quoteIdent(name)}`);
    counts[name] = Number(r.rows[0]!.n);
  }
  return counts;
}

export async function appliedMigrations(client: pg.Client): Promise<string[]> {
  const table = await client.query<{ t: string | null }>("select to_regclass('public._prisma_migrations')::text as t");
  if (!table.rows[0]?.t) return [];
  const rows = await client.query<{ migration_name: string }>(`${APPLIED_MIGRATIONS_SQL} order by migration_name`);
  return rows.rows.map((r) => r.migration_name);
}

/** The user-made objects in a database (tables, views, sequences, types, functions), a few by name. */
export async function userObjects(client: pg.Client): Promise<{ count: number; examples: string[] }> {
  const r = await client.query<{ name: string }>(
    `with user_ns as (
       select oid, nspname from pg_namespace
        where nspname not in ('pg_catalog', 'information_schema') and nspname not like 'pg_toast%' and nspname not like 'pg_temp%'
     )
     select n.nspname || '.' || c.relname as name from pg_class c join user_ns n on n.oid = c.relnamespace
     union all
     select n.nspname || '.' || t.typname from pg_type t join user_ns n on n.oid = t.typnamespace
      where t.typtype in ('e', 'd', 'r', 'm')
     union all
     select n.nspname || '.' || p.proname || '()' from pg_proc p join user_ns n on n.oid = p.pronamespace
     order by 1`,
  );
  return { count: r.rowCount ?? r.rows.length, examples: r.rows.slice(0, 3).map((x) => x.name) };
}
