import { performance } from "node:perf_hooks";
import { createThrowawayDatabase } from "../test/helpers/test-database";
const N = Number(process.argv[2] ?? 10000);
async function main() {
  const database = await createThrowawayDatabase("ov_bench_zz");
  process.env.DATABASE_URL = database.url;
  process.env.REDIS_URL ??= "redis://127.0.0.1:6379/0";
  process.env.AUTH_SECRET ??= "bench-browse-secret-".padEnd(48, "x");
  process.env.LOG_LEVEL = "error";
  process.env.DB_STATEMENT_TIMEOUT_MS = "600000";
  const { db } = await import("../lib/db");
  try {
    const { insertSyntheticSkills } = await import("./synthetic-skills");
    const { searchSkills } = await import("../lib/registry/search");
    const { parseBrowseQuery } = await import("../lib/registry/browse-query");
    await insertSyntheticSkills(N);
    const ps = [{ q: "csv" },{ q: "release notes" },{ q: "weather -json" },{ q: "\"commit message\"" },{ q: "statistics", sort: "installs" },{ q: "email", net: "none" },{ q: "convert units", runs: "sandbox", trust: "community" },{ q: "timezone", sort: "newest", page: "2" }];
    const qs = ps.map((p) => parseBrowseQuery(p as any));
    const per: Record<string, number[]> = {};
    for (let r = 0; r < 320; r++) {
      const q = qs[r % qs.length]!;
      const order = r % 2 ? [true, false] : [false, true];
      for (const prisma of order) {
        (globalThis as any).__PRISMA = prisma;
        const s = performance.now(); await searchSkills(q); const d = performance.now() - s;
        if (r >= 40) { (per[(prisma ? "prisma " : "pg     ") + q.q] ??= []).push(d); (per[prisma ? "prisma ALL" : "pg     ALL"] ??= []).push(d); }
      }
    }
    for (const k of Object.keys(per).sort((a, b) => a.slice(7).localeCompare(b.slice(7)))) { const s = per[k]!.sort((a, b) => a - b); console.log(k.padEnd(28), "p50", s[Math.floor(s.length / 2)]!.toFixed(2), "p95", s[Math.floor(s.length * 0.95)]!.toFixed(2)); }
  } finally { await db.$disconnect(); await database.drop(); }
}
main();
