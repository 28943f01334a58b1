// The fast scenarios of `npm run chaos` (scripts/chaos/fast-scenarios.ts), on this run's
// PostgreSQL and Redis: each starts its own web process and real Link, injects its fault, and
// throws what did not hold.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { prepareWorld, type ChaosContext } from "../../scripts/chaos/kit";
import { FAST_SCENARIOS } from "../../scripts/chaos/fast-scenarios";
import { setupIntegration, type IntegrationEnv } from "../helpers/integration";
import { stopAll } from "../helpers/stack";

let env: IntegrationEnv;
let ctx: ChaosContext;

beforeAll(async () => {
  env = await setupIntegration("chaosfast");
  const stores = {
    databaseUrl: env.database.url,
    redisUrl: process.env.REDIS_URL ?? "redis://127.0.0.1:6379/0",
    redisPrefix: env.redisPrefix,
    dataDir: env.dataDir,
  };
  ctx = { stores, db: env.db, world: await prepareWorld(stores, "chaos-fast@example.test"), log: () => undefined };
}, 120_000);

afterAll(async () => {
  await stopAll();
  await (await import("../../lib/runs")).dispatchQueue().close();
  await (await import("../../lib/registry")).scanQueue().close();
  await (await import("../../lib/events")).closeEvents();
  await env?.teardown();
});

describe("injected faults (the fast ones)", () => {
  for (const scenario of FAST_SCENARIOS) {
    it(`${scenario.name}: held`, async () => {
      const checked = await scenario.run(ctx);
      expect(checked.length).toBeGreaterThan(2);
    }, 120_000);
  }
});
