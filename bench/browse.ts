// `npm run bench:browse`: server time of a browse search and of a skill page over 10 000 skills,
// p50/p95, against a plain primary-key query measured in the same run, printed as ratios.
// It makes its own throw-away database (local server only), fills it with SQL, measures the lib
// functions the pages call (searchSkills, loadSkillPage) and drops the database.
//   node --conditions=react-server --import tsx lib/registry/bench-browse.ts [--skills N] [--runs N]
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
const WARMUP = 20;

type Stats = { p50: number; p95: number; mean: number };

function stats(samples: number[]): Stats {
  const sorted = [...samples].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
  return { p50: at(0.5), p95: at(0.95), mean: samples.reduce((a, b) => a + b, 0) / samples.length };
}

async function measure(fn: (i: number) => Promise<unknown>): Promise<Stats> {
  for (let i = 0; i < WARMUP; i++) await fn(i);
  const samples: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const started = performance.now();
    await fn(i);
    samples.push(performance.now() - started);
  }
  return stats(samples);
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
  /* eslint-enable no-restricted-properties */
  const { db } = await import("../lib/db");
  try {
    const { insertSyntheticSkills } = await import("./synthetic-skills");
    const { searchSkills } = await import("../lib/registry/search");
    const { parseBrowseQuery } = await import("../lib/registry/browse-query");
    const { loadSkillPage } = await import("../lib/registry/skill-page");

    const seedStarted = performance.now();
    const seeded = await insertSyntheticSkills(SKILLS);
    console.log(
      `Seeded ${seeded.skills} skills (${seeded.versions} versions, ${seeded.authors} authors) in ${Math.round(performance.now() - seedStarted)} ms.`,
    );

    // Deterministic spread of ids so every run measures the same work.
    const pick = (i: number) => ((i * 7919) % SKILLS) + 1;
    const searches = [
      { q: "csv" },
      { q: "release notes" },
      { q: "weather -json" },
      { q: "\"commit message\"" },
      { q: "statistics", sort: "installs" },
      { q: "email", net: "none" },
      { q: "convert units", runs: "sandbox", trust: "community" },
      { q: "timezone", sort: "newest", page: "2" },
    ].map((p) => parseBrowseQuery(p));
    const browses = [
      {},
      { sort: "newest" },
      { sort: "installs", page: "3" },
      { net: "public" },
      { status: "all", runs: "prompt" },
      { trust: "first_party", sort: "newest" },
    ].map((p) => parseBrowseQuery(p));

    const pk = await measure((i) => db.skill.findUnique({ where: { id: `syn_s_${pick(i)}` } }));
    const search = await measure((i) => searchSkills(searches[i % searches.length]!));
    const browse = await measure((i) => searchSkills(browses[i % browses.length]!));
    const page = await measure(async (i) => {
      const data = await loadSkillPage(`bench-skill-${pick(i)}`);
      if (!data) throw new Error(`bench-skill-${pick(i)} has no page`);
    });

    const sample = await searchSkills(searches[0]!);
    console.log(
      `A search for "csv" matches ${sample.totalCapped ? "more than " : ""}${sample.total} of ${SKILLS} skills (first page ${sample.skills.length}).`,
    );
    console.log(`\n${RUNS} runs each after ${WARMUP} warm-up runs; server time in ms (lib functions, one process).\n`);
    const row = (name: string, s: Stats) =>
      `${name.padEnd(34)} p50 ${s.p50.toFixed(2).padStart(7)}  p95 ${s.p95.toFixed(2).padStart(7)}   ` +
      `p50 ${(s.p50 / pk.p50).toFixed(1).padStart(5)}×  p95 ${(s.p95 / pk.p95).toFixed(1).padStart(5)}× the primary-key query`;
    console.log(`${"primary-key query (Skill by id)".padEnd(34)} p50 ${pk.p50.toFixed(2).padStart(7)}  p95 ${pk.p95.toFixed(2).padStart(7)}`);
    console.log(row("search (words + filters, ranked)", search));
    console.log(row("browse (no words, filters, sorts)", browse));
    console.log(row("skill page (loadSkillPage)", page));
  } finally {
    await db.$disconnect();
    await database.drop();
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
