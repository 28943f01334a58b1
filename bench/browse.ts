// `npm run bench:browse`: server time of a browse search, a browse and a skill page over a large
// synthetic catalogue (10 000 skills by default), p50/p95, against a plain primary-key query
// measured in the same run, printed as ratios with their budgets. Before measuring it prints the
// EXPLAIN (ANALYZE, BUFFERS) plan of every query shape, so a slow one shows why.
// It makes its own throw-away database (local server only), fills it with SQL (INSERT … SELECT
// generate_series, not one publish per skill), measures the lib functions the pages call
// (searchSkills, loadSkillPage) and drops the database.
//   node --conditions=react-server --import tsx lib/registry/bench-browse.ts [--skills N] [--runs N] [--quiet]
import { performance } from "node:perf_hooks";
import { createThrowawayDatabase } from "../test/helpers/test-database";

function flag(name: string, fallback: number): number {
  const i = process.argv.indexOf(`--${name}`);
  const n = i >= 0 ? Number(process.argv[i + 1]) : fallback;
  if (!Number.isInteger(n) || n < 1) throw new Error(`--${name} needs a positive whole number`);
  return n;
}

const SKILLS = flag("skills", 10_000);
const RUNS = flag("runs", 200);
const QUIET = process.argv.includes("--quiet");
const WARMUP = 20;

// Issue 17: search ≤ 5× a primary-key query at 10 000 skills and ≤ 8× at 100 000 (between them
// the budget grows with the logarithm of the catalogue); browse ≤ 3×; the skill page ≤ 2×.
function searchBudget(skills: number): number {
  if (skills <= 10_000) return 5;
  if (skills >= 100_000) return 8;
  return 5 + 3 * Math.log10(skills / 10_000);
}

type Stats = { p50: number; p95: number; mean: number };

function stats(samples: number[]): Stats {
  const sorted = [...samples].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
  return { p50: at(0.5), p95: at(0.95), mean: samples.reduce((a, b) => a + b, 0) / samples.length };
}

/**
 * Runs the kinds round-robin, one call of each per round, so a burst of load on this shared
 * machine lands on all of them alike and the ratios stay comparable.
 */
async function measureInterleaved(kinds: ((i: number) => Promise<unknown>)[]): Promise<Stats[]> {
  for (let i = 0; i < WARMUP; i++) for (const fn of kinds) await fn(i);
  const samples: number[][] = kinds.map(() => []);
  for (let i = 0; i < RUNS; i++) {
    for (const [k, fn] of kinds.entries()) {
      const started = performance.now();
      await fn(i);
      samples[k]!.push(performance.now() - started);
    }
  }
  return samples.map(stats);
}

async function main() {
  const database = await createThrowawayDatabase("ov_bench_browse");
  // This script is its own process: it points the app's config at the throw-away database before
  // anything reads it (lib/config reads the environment once, on first use).
  /* eslint-disable no-restricted-properties */
  process.env.DATABASE_URL = database.url;
  process.env.REDIS_URL ??= "redis://127.0.0.1:6379/0";
  process.env.AUTH_SECRET ??= "bench-browse-secret-".padEnd(48, "x");
  process.env.LOG_LEVEL = "error";
  // Seeding 100 000 skills is one statement of minutes; the measured queries take milliseconds.
  process.env.DB_STATEMENT_TIMEOUT_MS = "600000";
  /* eslint-enable no-restricted-properties */
  const { db, Prisma } = await import("../lib/db");
  let failed = false;
  try {
    const { insertSyntheticSkills } = await import("./synthetic-skills");
    const { searchSkills, searchSql } = await import("../lib/registry/search");
    const { findNameTerm } = await import("../lib/registry/search-names");
    const { parseBrowseQuery } = await import("../lib/registry/browse-query");
    const { loadSkillPage, skillPageSql } = await import("../lib/registry/skill-page");

    const seedStarted = performance.now();
    const seeded = await insertSyntheticSkills(SKILLS);
    console.log(
      `Seeded ${seeded.skills} skills (${seeded.versions} versions, ${seeded.authors} authors) in ${Math.round(performance.now() - seedStarted)} ms.`,
    );

    // Deterministic spread of ids so every run measures the same work.
    const pick = (i: number) => ((i * 7919) % SKILLS) + 1;
    const searchParams: Record<string, string>[] = [
      { q: "csv" },
      { q: "release notes" },
      { q: "weather -json" },
      { q: "\"commit message\"" },
      { q: "statistics", sort: "installs" },
      { q: "email", net: "none" },
      { q: "convert units", runs: "sandbox", trust: "community" },
      { q: "timezone", sort: "newest", page: "2" },
    ];
    const browseParams: Record<string, string>[] = [
      {},
      { sort: "newest" },
      { sort: "installs", page: "3" },
      { net: "public" },
      { status: "all", runs: "prompt" },
      { trust: "first_party", sort: "newest" },
      { status: "failed" },
    ];
    const searches = searchParams.map((p) => parseBrowseQuery(p));
    const browses = browseParams.map((p) => parseBrowseQuery(p));
    // A deep keyset page: the cursor of page 50 of the default browse, and of a search.
    const deep = async (params: Record<string, string>) => {
      let q = parseBrowseQuery(params);
      for (let page = 1; page < 50; page++) {
        const r = await searchSkills(q);
        if (!r.next) break;
        q = { ...q, page: page + 1, after: r.next };
      }
      return q;
    };
    const deepBrowse = await deep({});
    const deepSearch = await deep({ q: "csv" });
    browses.push(deepBrowse);
    searches.push(deepSearch);

    if (!QUIET) {
      const explain = async (label: string, sql: import("../lib/db").Prisma.Sql) => {
        const rows = await db.$queryRaw<{ "QUERY PLAN": string }[]>(Prisma.sql`EXPLAIN (ANALYZE, BUFFERS, COSTS OFF) ${sql}`);
        console.log(`\n── ${label}\n${rows.map((r) => `   ${r["QUERY PLAN"]}`).join("\n")}`);
      };
      const shape = (p: Record<string, string>) => JSON.stringify(p);
      console.log("\nEXPLAIN (ANALYZE, BUFFERS) of every query shape:");
      await explain("primary-key query: Skill by id", Prisma.sql`SELECT * FROM "Skill" WHERE id = ${`syn_s_${pick(1)}`}`);
      for (const [i, q] of searches.entries()) {
        const sql = searchSql(q, {}, await findNameTerm(q.q));
        const name = i < searchParams.length ? shape(searchParams[i]!) : `{"q":"csv"} keyset page ${q.page}`;
        if (sql.kind !== "words") throw new Error(`${name} has no words`);
        const { total } = await searchSkills(q).then((r) => ({ total: r.totalCapped ? "more than " + r.total : String(r.total) }));
        await explain(`search ${name} (${total} match; up to ${sql.cap} are ranked from GIN, more are walked)`, sql.words);
      }
      for (const [i, q] of browses.entries()) {
        const sql = searchSql(q);
        const name = i < browseParams.length ? shape(browseParams[i]!) : `{} keyset page ${q.page}`;
        if (sql.kind !== "browse") throw new Error(`${name} has words`);
        await explain(`browse ${name}: page`, sql.page);
        await explain(`browse ${name}: capped count`, sql.count);
      }
      await explain("skill page (its one query)", skillPageSql(`bench-skill-${pick(1)}`));
    }

    const [pk, search, browse, page] = (await measureInterleaved([
      (i) => db.skill.findUnique({ where: { id: `syn_s_${pick(i)}` } }),
      (i) => searchSkills(searches[i % searches.length]!),
      (i) => searchSkills(browses[i % browses.length]!),
      async (i) => {
        const data = await loadSkillPage(`bench-skill-${pick(i)}`);
        if (!data) throw new Error(`bench-skill-${pick(i)} has no page`);
      },
    ])) as [Stats, Stats, Stats, Stats];

    const sample = await searchSkills(searches[0]!);
    console.log(
      `\nA search for "csv" matches ${sample.totalCapped ? "more than " : ""}${sample.total} of ${SKILLS} skills (first page ${sample.skills.length}).`,
    );
    console.log(`${RUNS} rounds of each, interleaved, after ${WARMUP} warm-up rounds; server time in ms (lib functions, one process).\n`);
    const row = (name: string, s: Stats, budget: number) => {
      const ratio = s.p50 / pk.p50;
      const holds = ratio <= budget;
      if (!holds) failed = true;
      return (
        `${name.padEnd(36)} p50 ${s.p50.toFixed(2).padStart(7)}  p95 ${s.p95.toFixed(2).padStart(7)}   ` +
        `p50 ${ratio.toFixed(1).padStart(5)}×  (budget ≤ ${budget.toFixed(1)}×: ${holds ? "holds" : "OVER"})  p95 ${(s.p95 / pk.p95).toFixed(1)}×`
      );
    };
    console.log(`${"primary-key query (Skill by id)".padEnd(36)} p50 ${pk.p50.toFixed(2).padStart(7)}  p95 ${pk.p95.toFixed(2).padStart(7)}`);
    console.log(row(`search at ${SKILLS} skills`, search, searchBudget(SKILLS)));
    console.log(row("browse (no words, filters, sorts)", browse, 3));
    console.log(row("skill page (loadSkillPage)", page, 2));
  } finally {
    await db.$disconnect();
    await database.drop();
  }
  if (failed) {
    console.error("\n✖ bench:browse: a ratio is over its budget (see above).");
    process.exitCode = 1;
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
