// `npm run chaos [-- --fast] [-- NAME…]`: injects each fault of issue 19 into a real stack (web
// processes, worker hosts and real Links as child processes, as `npm start` runs them) and prints
// scenario | outcome | what was checked. It brings its own Redis (no persistence) and its own
// PostgreSQL on ports of their own, so killing and restarting them touches nobody else's, and
// removes both afterwards. Bounded: the run stops at 10 minutes, counting what did not finish as
// broken. Exits 1 when anything broke.
import { randomBytes } from "node:crypto";
import path from "node:path";
import { FAST_SCENARIOS } from "./chaos/fast-scenarios";
import { prepareWorld, type ChaosContext, type Scenario } from "./chaos/kit";
import { SLOW_SCENARIOS } from "./chaos/slow-scenarios";
import { ownPostgres, ownRedis, type OwnPostgres, type OwnRedis } from "./chaos/stores";
import { removeTempDirs, tempDir } from "../test/helpers/temp-dir";
import { stopAll } from "../test/helpers/stack";
import { ensureBubblewrap, ensureDependencies } from "./provision.mjs";

const RUN_BOUND_MS = 10 * 60_000;
const SCENARIO_BOUND_MS = 4 * 60_000;

type Row = { scenario: string; outcome: "held" | "broken"; checked: string; seconds: number };

function table(rows: Row[]): string {
  const widths = [Math.max(8, ...rows.map((r) => r.scenario.length)), 7];
  const line = (a: string, b: string, c: string) => `${a.padEnd(widths[0]!)} | ${b.padEnd(widths[1]!)} | ${c}`;
  return [
    line("scenario", "outcome", "what was checked"),
    `${"-".repeat(widths[0]!)}-+-${"-".repeat(widths[1]!)}-+-${"-".repeat(40)}`,
    ...rows.map((r) => line(r.scenario, r.outcome, `(${r.seconds} s) ${r.checked}`)),
  ].join("\n");
}

function withBound<T>(work: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} did not finish within ${Math.round(ms / 1000)} s`)), ms);
  });
  return Promise.race([work, late]).finally(() => clearTimeout(timer));
}

async function main() {
  const args = process.argv.slice(2);
  const fastOnly = args.includes("--fast");
  const names = args.filter((a) => !a.startsWith("--"));
  const chosen = [...FAST_SCENARIOS, ...(fastOnly ? [] : SLOW_SCENARIOS)].filter(
    (s) => !names.length || names.some((n) => s.name.toLowerCase().includes(n.toLowerCase())),
  );
  // The scenarios run real Links, compiled and sandboxed: a clean clone has neither link/dist nor,
  // on a fresh machine, bubblewrap.
  await ensureDependencies();
  await ensureBubblewrap();
  const started = Date.now();
  const root = tempDir("chaos");
  console.log(`▸ chaos: ${chosen.length} scenarios, own stores under ${root}`);
  const redis = await ownRedis(root);
  // Its own top-level folder: as root, the cluster belongs to the `postgres` user, who must reach it.
  const postgres = await ownPostgres(tempDir("chaos-pg")).catch(async (err: unknown) => {
    await redis.stop();
    throw err;
  });
  console.log(`▸ Redis on 127.0.0.1:${redis.port} (no persistence), PostgreSQL on 127.0.0.1:${postgres.port}`);
  const rows: Row[] = [];
  try {
    rows.push(...(await runAll(chosen, root, redis, postgres, started)));
  } finally {
    await postgres.stop().catch(() => undefined);
    await redis.stop();
    removeTempDirs();
  }
  console.log(`\n${table(rows)}\n`);
  const broken = rows.filter((r) => r.outcome === "broken").length;
  console.log(`${rows.length - broken} held, ${broken} broken, in ${Math.round((Date.now() - started) / 1000)} s`);
  process.exit(broken ? 1 : 0);
}

async function runAll(chosen: Scenario[], root: string, redis: OwnRedis, postgres: OwnPostgres, started: number) {
  // Before any lib/ module reads its config: this process is one more client of the stack.
  process.env.DATABASE_URL = postgres.url;
  const { createThrowawayDatabase } = await import("../test/helpers/test-database");
  const database = await createThrowawayDatabase("ov_chaos");
  const stores = {
    databaseUrl: database.url,
    redisUrl: redis.url,
    redisPrefix: `chaos:${randomBytes(4).toString("hex")}`,
    dataDir: path.join(root, "data"),
  };
  Object.assign(process.env, {
    DATABASE_URL: stores.databaseUrl,
    REDIS_URL: stores.redisUrl,
    REDIS_PREFIX: stores.redisPrefix,
    DATA_DIR: stores.dataDir,
    AUTH_SECRET: "integration-secret-".padEnd(40, "x"),
    LOG_LEVEL: "error",
    RATE_LIMIT_SCALE: "50",
    DB_CONNECT_TIMEOUT_MS: "2000",
  });
  const { db } = await import("../lib/db");
  const rows: Row[] = [];
  try {
    const world = await prepareWorld(stores, "chaos@example.test");
    const ctx: ChaosContext = { stores, world, db, redis, postgres, log: (line) => console.log(`  ${line}`) };
    for (const scenario of chosen) rows.push(await runOne(scenario, ctx, started));
  } finally {
    await stopAll();
    await db.$disconnect().catch(() => undefined);
    const { closeEvents } = await import("../lib/events");
    await closeEvents().catch(() => undefined);
  }
  return rows;
}

async function runOne(scenario: Scenario, ctx: ChaosContext, started: number): Promise<Row> {
  const t0 = Date.now();
  const left = RUN_BOUND_MS - (t0 - started);
  const seconds = () => Math.round((Date.now() - t0) / 1000);
  if (left <= 0)
    return {
      scenario: scenario.name,
      outcome: "broken",
      checked: "not run: the 10-minute bound was spent",
      seconds: 0,
    };
  console.log(`▸ ${scenario.name} …`);
  try {
    const checked = await withBound(scenario.run(ctx), Math.min(SCENARIO_BOUND_MS, left), scenario.name);
    console.log(`  held (${seconds()} s)`);
    return { scenario: scenario.name, outcome: "held", checked: checked.join("; "), seconds: seconds() };
  } catch (err) {
    const reason = err instanceof Error ? err.message.split("\n")[0]! : String(err);
    console.log(`  BROKEN (${seconds()} s): ${reason}`);
    return { scenario: scenario.name, outcome: "broken", checked: reason, seconds: seconds() };
  } finally {
    await stopAll();
  }
}

main().catch((err: unknown) => {
  console.error(`chaos: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
  removeTempDirs();
  process.exit(1);
});
