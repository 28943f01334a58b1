// `npm run bench:tlog`: the transparency log at 1 000 and at 100 000 entries — an inclusion proof,
// a consistency proof and an append (inside its own transaction, as a publish does) — p50/p95,
// each as a ratio to a primary-key read measured in the same run, and the 100k/1k ratio of each,
// which stays near 1 when the work is O(log n) queries rather than O(n).
//   node --import ./scripts/no-server-only.mjs --import tsx lib/tlog/bench.ts [--runs N]
import { readFile } from "node:fs/promises";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { createThrowawayDatabase } from "../test/helpers/test-database";

const i = process.argv.indexOf("--runs");
const RUNS = i >= 0 ? Number(process.argv[i + 1]) : 150;
if (!Number.isInteger(RUNS) || RUNS < 10) throw new Error("--runs needs a whole number of at least 10");
const WARMUP = 30;
const SIZES = [1_000, 100_000];

type Stats = { p50: number; p95: number };

async function measure(fn: (i: number) => Promise<unknown>, offset = 0): Promise<Stats> {
  for (let k = 0; k < WARMUP; k++) await fn(offset + k);
  const samples: number[] = [];
  for (let k = 0; k < RUNS; k++) {
    const started = performance.now();
    await fn(offset + WARMUP + k);
    samples.push(performance.now() - started);
  }
  samples.sort((a, b) => a - b);
  const at = (q: number) => samples[Math.min(samples.length - 1, Math.floor(q * samples.length))]!;
  return { p50: at(0.5), p95: at(0.95) };
}

async function main() {
  const database = await createThrowawayDatabase("ov_bench_tlog");
  /* eslint-disable no-restricted-properties */
  process.env.DATABASE_URL = database.url;
  process.env.REDIS_URL ??= "redis://127.0.0.1:6379/0";
  process.env.AUTH_SECRET ??= "bench-tlog-secret-".padEnd(48, "x");
  process.env.LOG_LEVEL = "error";
  /* eslint-enable no-restricted-properties */
  const { db } = await import("../lib/db");
  try {
    const { appendToLog } = await import("../lib/tlog/append");
    const { inclusionProof, consistencyProof } = await import("../lib/tlog/service");
    const { insertSyntheticSkills } = await import("./synthetic-skills");
    const migration = await readFile(
      path.resolve(import.meta.dirname, "../prisma/migrations/20261201050000_transparency_log/migration.sql"),
      "utf8",
    );
    const buildNodes = migration.split(";").find((s) => s.includes('INSERT INTO "LogNode"'))!;
    // Versions to append: each append logs a new one, as a publish would.
    await insertSyntheticSkills(Math.ceil(((RUNS + WARMUP) * SIZES.length) / 2) + 10, 10);
    const versions = (await db.skillVersion.findMany({ select: { id: true }, orderBy: { id: "asc" } })).map(
      (v) => v.id,
    );

    const results: Record<string, Record<number, Stats>> = { baseline: {}, inclusion: {}, consistency: {}, append: {} };
    for (const [phase, size] of SIZES.entries()) {
      const started = performance.now();
      // Filler entries, then every complete subtree, with the migration's own statement.
      await db.$executeRaw`
        INSERT INTO "LogEntry" ("leafIndex", "versionId", "event", "data", "leafHash")
        SELECT g, 'filler-' || g, 'publish', '{"filler":' || g || '}', sha256('\\x00'::bytea || convert_to('{"filler":' || g || '}', 'UTF8'))
        FROM generate_series((SELECT count(*) FROM "LogEntry"), ${size - 1}::bigint) g`;
      await db.logNode.deleteMany();
      await db.$executeRawUnsafe(buildNodes);
      await db.logHead.update({ where: { id: 1 }, data: { size: BigInt(size) } });
      await db.$executeRaw`ANALYZE`;
      console.log(`Log of ${size} entries built in ${Math.round(performance.now() - started)} ms.`);

      const spread = (k: number) => (k * 7919) % size;
      results.baseline![size] = await measure((k) =>
        db.logEntry.findUnique({ where: { leafIndex: BigInt(spread(k)) }, select: { leafHash: true } }),
      );
      results.inclusion![size] = await measure((k) =>
        inclusionProof(new URLSearchParams({ leaf: String(spread(k)), size: String(size) })),
      );
      results.consistency![size] = await measure((k) =>
        consistencyProof(new URLSearchParams({ from: String(1 + spread(k)), to: String(size) })),
      );
      const offset = phase * (RUNS + WARMUP);
      results.append![size] = await measure(
        (k) => db.$transaction((tx) => appendToLog(tx, { versionId: versions[k]!, event: "publish" })),
        offset,
      );
      // The appends grew the log; the next phase fills up from here.
    }

    const fmt = (n: number) => n.toFixed(2);
    console.log(`\n${RUNS} runs each (after ${WARMUP} warm-up), milliseconds:`);
    console.log("operation      size      p50     p95   p50 / pk read   p50 100k / 1k");
    for (const op of ["baseline", "inclusion", "consistency", "append"]) {
      for (const size of SIZES) {
        const s = results[op]![size]!;
        const ratio = s.p50 / results.baseline![size]!.p50;
        const scale = size === SIZES[1] ? `${fmt(s.p50 / results[op]![SIZES[0]!]!.p50)}×` : "";
        console.log(
          `${op.padEnd(12)} ${String(size).padStart(7)} ${fmt(s.p50).padStart(8)} ${fmt(s.p95).padStart(7)} ${`${fmt(ratio)}×`.padStart(15)} ${scale.padStart(15)}`,
        );
      }
    }
  } finally {
    await db.$disconnect();
    await database.drop();
  }
}

main().then(
  () => process.exit(0),
  (err: unknown) => {
    console.error(err);
    process.exit(1);
  },
);
