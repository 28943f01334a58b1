// The committed migrations build exactly the database that schema.prisma describes, apply once,
// and leave no foreign key without an index to serve it. Runs against the real PostgreSQL.
import { randomBytes } from "node:crypto";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { config } from "../config/env.mjs";
import { applyMigrations, migrationsList, schemaSql } from "./migrator";

const adminUrl = config().DATABASE_URL;
const created: string[] = [];

function urlOf(name: string) {
  const u = new URL(adminUrl);
  u.pathname = `/${name}`;
  return u.toString();
}

async function withClient<T>(url: string, fn: (c: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

async function freshDatabase(label: string): Promise<string> {
  const name = `ov_it_${label}_${randomBytes(4).toString("hex")}`;
  await withClient(adminUrl, (c) => c.query(`create database "${name}"`));
  created.push(name);
  return urlOf(name);
}

type Catalog = {
  columns: string[];
  indexes: string[];
  foreignKeys: string[];
  enums: string[];
};

// Every table in `public` except Prisma's own bookkeeping table, as sorted comparable lines.
async function catalog(url: string): Promise<Catalog> {
  return withClient(url, async (c) => {
    const columns = await c.query(`
      select table_name || '.' || column_name || ' ' || udt_name
        || coalesce('(' || character_maximum_length || ')', '')
        || case when is_nullable = 'NO' then ' not null' else '' end
        || coalesce(' default ' || column_default, '') as line
      from information_schema.columns
      where table_schema = 'public' and table_name <> '_prisma_migrations'
        -- views the migrations add for triggers (SkillLatestSource) are not in schema.prisma
        and table_name in (select table_name from information_schema.tables
                           where table_schema = 'public' and table_type = 'BASE TABLE')`);
    const indexes = await c.query(`
      select indexdef as line from pg_indexes
      where schemaname = 'public' and tablename <> '_prisma_migrations'`);
    const foreignKeys = await c.query(`
      select conname || ': ' || pg_get_constraintdef(oid) as line from pg_constraint
      where contype = 'f' and connamespace = 'public'::regnamespace`);
    const enums = await c.query(`
      select t.typname || ' ' || string_agg(e.enumlabel, ',' order by e.enumsortorder) as line
      from pg_type t join pg_enum e on e.enumtypid = t.oid
      where t.typnamespace = 'public'::regnamespace group by t.typname`);
    const lines = (r: pg.QueryResult) => r.rows.map((row: { line: string }) => row.line).sort();
    // GIN storage parameters (fastupdate=off on the search vectors) are beyond what schema.prisma
    // can say; the index itself must still match.
    const unparameterised = (r: pg.QueryResult) => lines(r).map((l) => l.replace(/ WITH \(fastupdate=off\)$/, ""));
    return {
      columns: lines(columns),
      indexes: unparameterised(indexes),
      foreignKeys: lines(foreignKeys),
      enums: lines(enums),
    };
  });
}

let migratedUrl: string;
let firstRun: string[];
let secondRun: string[];

beforeAll(async () => {
  migratedUrl = await freshDatabase("migrated");
  firstRun = await applyMigrations(migratedUrl);
  secondRun = await applyMigrations(migratedUrl);
});

afterAll(async () => {
  await withClient(adminUrl, async (c) => {
    for (const name of created) await c.query(`drop database if exists "${name}" with (force)`);
  });
});

describe("applyMigrations", () => {
  it("applies every committed migration to a fresh database, in order, and none on a second run", () => {
    const committed = migrationsList().migrationDirectories.map((d) => d.path);
    expect(committed.length).toBeGreaterThan(0);
    expect(firstRun).toEqual(committed);
    expect(secondRun).toEqual([]);
  });
});

describe("the migrated database", () => {
  it("has exactly the tables, columns, types, nullability, defaults, indexes, foreign keys and enums of schema.prisma", async () => {
    const referenceUrl = await freshDatabase("schema");
    const sql = await schemaSql(referenceUrl);
    expect(sql).toContain("CREATE TABLE");
    await withClient(referenceUrl, (c) => c.query(sql));

    const [migrated, reference] = await Promise.all([catalog(migratedUrl), catalog(referenceUrl)]);
    expect(migrated.columns.length).toBeGreaterThan(0);
    expect(migrated.columns).toEqual(reference.columns);
    expect(migrated.indexes).toEqual(reference.indexes);
    expect(migrated.foreignKeys).toEqual(reference.foreignKeys);
    expect(migrated.enums).toEqual(reference.enums);
  });

  it("serves every foreign key with an index whose leading columns are the key's columns", async () => {
    const unindexed = await withClient(migratedUrl, async (c) => {
      const fks = await c.query<{ table: string; name: string; cols: number[] }>(`
        select conrelid::regclass::text as table, conname as name, conkey::int[] as cols
        from pg_constraint where contype = 'f' and connamespace = 'public'::regnamespace`);
      const idx = await c.query<{ table: string; cols: string }>(`
        select indrelid::regclass::text as table, indkey::text as cols from pg_index
        where indrelid in (select oid from pg_class where relnamespace = 'public'::regnamespace)`);
      expect(fks.rows.length).toBeGreaterThan(0);
      return fks.rows
        .filter((fk) => {
          const want = [...fk.cols].sort((a, b) => a - b);
          return !idx.rows.some((i) => {
            if (i.table !== fk.table) return false;
            const lead = i.cols.split(" ").map(Number).slice(0, want.length);
            return lead.length === want.length && [...lead].sort((a, b) => a - b).every((n, k) => n === want[k]);
          });
        })
        .map((fk) => `${fk.table}.${fk.name}`);
    });
    expect(unindexed).toEqual([]);
  });
});
