// What every fault scenario shares: the stack's stores and person, a check that names what it
// proved (or throws what it found), Links paired as that person, and the money of a set of jobs.
import { randomBytes } from "node:crypto";
import type { StackStores } from "../../test/helpers/stack";
import { appEnv, startLink, type StackLink } from "../../test/helpers/stack";
import { callTool, SLOW_SKILL, type CallAnswer, type World } from "../../test/helpers/world";
import type { OwnPostgres, OwnRedis } from "./stores";

type Db = (typeof import("../../lib/db"))["db"];

export type ChaosContext = {
  stores: StackStores;
  world: World;
  db: Db;
  /** Only in `npm run chaos`: stores of its own that a scenario may kill and restart. */
  redis?: OwnRedis;
  postgres?: OwnPostgres;
  log(line: string): void;
};

export type Scenario = {
  name: string;
  /** Runs in `npm test` too (seconds, on the shared stores). */
  fast: boolean;
  needs?: "redis" | "postgres";
  /** Returns what it checked; throws a ChaosBroken (or anything) when something did not hold. */
  run(ctx: ChaosContext): Promise<string[]>;
};

export class ChaosBroken extends Error {}

/** Collects what a scenario checked; `that` throws with the reason when a check fails. */
export class Checks {
  readonly done: string[] = [];
  that(ok: boolean, what: string, found?: unknown): void {
    if (!ok) throw new ChaosBroken(`${what}: ${found === undefined ? "no" : JSON.stringify(found, bigints)}`);
    this.done.push(what);
  }
}

const bigints = (_k: string, v: unknown) => (typeof v === "bigint" ? v.toString() : v);

export function envOf(ctx: ChaosContext, extra: Record<string, string> = {}) {
  return appEnv(ctx.stores, extra);
}

/** A real Link of the scenario's person, paired through `webUrl`, its runner on and polling. */
export async function pairLink(ctx: ChaosContext, webUrl: string, label: string): Promise<StackLink> {
  const { createPairingCode } = await import("../../lib/links");
  const { code } = await createPairingCode(ctx.world.userId);
  return startLink(
    label,
    webUrl,
    code,
    async (linkId) =>
      (await ctx.db.link.count({ where: { id: linkId, lastSeenAt: { gt: new Date(Date.now() - 5_000) } } })) === 1,
  );
}

/** Ends a scenario's Links: processes stopped, rows revoked, so the next scenario places nothing on them. */
export async function retireLinks(ctx: ChaosContext, links: StackLink[]): Promise<void> {
  await Promise.all(links.map((l) => l.home.stop()));
  await ctx.db.link.updateMany({ where: { id: { in: links.map((l) => l.linkId) } }, data: { revokedAt: new Date() } });
}

/** The ledger of these jobs: holds, settlements, their sum, and what the jobs say they cost. */
export async function money(ctx: ChaosContext, jobIds: string[]) {
  const entries = await ctx.db.ledgerEntry.findMany({ where: { jobId: { in: jobIds } } });
  const jobs = await ctx.db.runJob.findMany({ where: { id: { in: jobIds } }, select: { costMicros: true } });
  return {
    holds: entries.filter((e) => e.kind === "charge").length,
    settlements: entries.filter((e) => e.kind === "refund").length,
    sum: entries.reduce((n, e) => n + e.amountMicros, 0n),
    cost: jobs.reduce((n, j) => n + (j.costMicros ?? 0n), 0n),
  };
}

export async function jobsOf(ctx: ChaosContext, stepIds: string[]) {
  return ctx.db.runJob.findMany({ where: { stepId: { in: stepIds } } });
}

export async function until<T>(what: string, fn: () => Promise<T | null | undefined | false>, ms: number): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await fn().catch(() => null);
    if (value) return value;
    if (Date.now() > deadline) throw new ChaosBroken(`timed out after ${ms} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** The run's person: text-tools and slow-tools installed, both word_counts allowed "always". */
export async function prepareWorld(stores: StackStores, email: string): Promise<World> {
  const { seedWorld, seedSlowSkill, grantWordCount, waitStep, SLOW_SKILL } = await import("../../test/helpers/world");
  const { startWeb } = await import("../../test/helpers/stack");
  const world = await seedWorld(email);
  await seedSlowSkill(world);
  const web = await startWeb("chaos-setup", appEnv(stores));
  try {
    for (const skill of [undefined, SLOW_SKILL]) {
      const first = await grantWordCount(web.url, world, skill);
      // Its job has no Link to go to yet: it ends no_node, and the grant stays.
      await waitStep([web.url], world, first, 30_000);
    }
  } finally {
    await web.stop();
  }
  return world;
}

/**
 * An agent's call as a careful agent makes it: with an Idempotency-Key, again after a 503 (a store
 * down, or too slow under load) until it is stored. Every answer is kept for the caller to check.
 */
export async function callUntilStored(url: () => string, ctx: ChaosContext, text: string, answers: CallAnswer[]) {
  const key = `chaos-${randomBytes(6).toString("hex")}`;
  for (let i = 0; i < 60; i++) {
    const answer = await callTool(url(), ctx.world, { text }, { key, skill: SLOW_SKILL }).catch(
      (err: Error): CallAnswer => ({ status: 0, body: { error: { code: err.message } }, retryAfter: null }),
    );
    answers.push(answer);
    if (answer.status === 201) return answer.body.id!;
    await sleep(500);
  }
  throw new ChaosBroken(`never stored: ${JSON.stringify(answers.slice(-3))}`);
}

/** Answers a careful agent can act on: 201, or 503 with Retry-After (never a 500). */
export const unexpectedAnswers = (answers: CallAnswer[]) =>
  answers.filter((a) => a.status !== 201 && !(a.status === 503 && a.retryAfter));
