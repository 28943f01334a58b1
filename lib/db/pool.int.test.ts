// The two raw-SQL pools plan differently: a hot path's named statement once per connection (a
// generic plan, however its arrays look), a search's statements for their own values. Real PostgreSQL.
import { afterAll, describe, expect, it } from "vitest";
import type pg from "pg";
import { searchPool, sqlPool } from "./pool";

const STATEMENT = "SELECT count(*)::int AS n FROM unnest($1::text[]) AS t(v) WHERE v <> ''";

/** Runs the named statement `runs` times on one connection of `pool`, and how PostgreSQL planned it. */
async function plansOf(pool: pg.Pool, runs: number): Promise<{ generic: number; custom: number }> {
  const client = await pool.connect();
  const name = `pool-test-${Math.random().toString(36).slice(2)}`;
  try {
    for (let i = 0; i < runs; i++) {
      const { rows } = await client.query({ name, text: STATEMENT, values: [["a", "b", ""].slice(0, 1 + (i % 3))] });
      expect(rows[0].n).toBe(Math.min(1 + (i % 3), 2));
    }
    const { rows } = await client.query(
      "SELECT generic_plans::int AS generic, custom_plans::int AS custom FROM pg_prepared_statements WHERE name = $1",
      [name],
    );
    return rows[0];
  } finally {
    client.release();
  }
}

afterAll(async () => {
  await Promise.all([sqlPool().end(), searchPool().end()]);
});

describe("raw SQL pools", () => {
  it("plan a hot path's named statement once per connection, never again for its values", async () => {
    expect(await plansOf(sqlPool(), 8)).toEqual({ generic: 8, custom: 0 });
  });

  it("plan a search's statements for their own values", async () => {
    const plans = await plansOf(searchPool(), 8);
    expect(plans.custom).toBeGreaterThanOrEqual(5);
  });
});
