// What the metrics report from PostgreSQL, computed at scrape time through the probe pool: jobs by
// state, versions by scan verdict, Links online, ledger totals and recent dispatch latency. The
// same numbers from every web copy, because they come from the record, not from process memory.
import "server-only";
import { ONLINE_WINDOW_MS } from "../links/service";
import { probePool } from "./probe-connections";

/** Dispatch latency is summarised over the jobs placed in this window. */
export const DISPATCH_WINDOW_MS = 5 * 60_000;
export const DISPATCH_QUANTILES = [0.5, 0.9, 0.99] as const;

export type DatabaseStats = {
  jobsByState: Array<{ state: string; count: number }>;
  versionsByStatus: Array<{ status: string; count: number }>;
  linksOnline: Array<{ runner: boolean; pool: boolean; count: number }>;
  dispatch: { placed: number; quantiles: Array<{ quantile: number; seconds: number }> };
};

export type LedgerStats = Array<{ kind: string; entries: number; amountMicros: bigint }>;

export async function databaseStats(now = Date.now()): Promise<DatabaseStats> {
  const client = await probePool().connect();
  try {
    // Each is a group-by over an indexed column or an index range (RunJob_state_*, SkillVersion
    // status, Link pool/runner/lastSeenAt, RunJob placedAt).
    const jobs = await client.query<{ state: string; count: string }>(
      `select state::text as state, count(*) as count from "RunJob" group by state`,
    );
    const versions = await client.query<{ status: string; count: string }>(
      `select status::text as status, count(*) as count from "SkillVersion" group by status`,
    );
    const links = await client.query<{ runner: boolean; pool: boolean; count: string }>(
      `select "runnerEnabled" as runner, "poolOffer" as pool, count(*) as count from "Link"
        where "revokedAt" is null and "lastSeenAt" >= $1 group by 1, 2`,
      [new Date(now - ONLINE_WINDOW_MS)],
    );
    const dispatch = await client.query<{ placed: string; quantiles: number[] | null }>(
      `select count(*) as placed,
              percentile_cont($2::float8[]) within group (
                order by extract(epoch from ("placedAt" - "createdAt"))) as quantiles
         from "RunJob" where "placedAt" >= $1`,
      [new Date(now - DISPATCH_WINDOW_MS), DISPATCH_QUANTILES],
    );
    const placed = Number(dispatch.rows[0]?.placed ?? 0);
    const quantiles = dispatch.rows[0]?.quantiles ?? [];
    return {
      jobsByState: jobs.rows.map((r) => ({ state: r.state, count: Number(r.count) })),
      versionsByStatus: versions.rows.map((r) => ({ status: r.status, count: Number(r.count) })),
      linksOnline: links.rows.map((r) => ({ runner: r.runner, pool: r.pool, count: Number(r.count) })),
      dispatch: {
        placed,
        quantiles: placed
          ? DISPATCH_QUANTILES.map((q, i) => ({ quantile: q, seconds: Math.max(0, quantiles[i] ?? 0) }))
          : [],
      },
    };
  } finally {
    client.release();
  }
}

/**
 * Totals per ledger kind. A sum over the whole append-only ledger, so it is kept for longer than
 * the other numbers (see LEDGER_TTL_MS in scrape.ts).
 */
export async function ledgerStats(): Promise<LedgerStats> {
  const result = await probePool().query<{ kind: string; entries: string; amount: string }>(
    `select kind::text as kind, count(*) as entries, coalesce(sum("amountMicros"), 0)::text as amount
       from "LedgerEntry" group by kind`,
  );
  return result.rows.map((r) => ({ kind: r.kind, entries: Number(r.entries), amountMicros: BigInt(r.amount) }));
}
