// Many instances (issue 19): two web processes and two worker hosts on one PostgreSQL and one
// Redis, with two real Links of one person, each paired through a different web process. 100 calls
// go through both web servers, and new versions are published through both. Every step ends
// exactly once, no job is placed twice, charges equal runs, each scan is stored once, and every
// repeating sweep exists once and runs once per tick, whichever host runs it.
import { Queue, type Job } from "bullmq";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { setupIntegration, type IntegrationEnv } from "../helpers/integration";
import { appEnv, startLink, startWeb, startWorkerHost, stopAll, type StackLink, type WebProc } from "../helpers/stack";
import { callTool, grantWordCount, publishVersion, seedWorld, waitStep, type World } from "../helpers/world";

const CALLS = 100;
const IN_FLIGHT = 10;
const VERSIONS = ["2.1.0", "2.1.1", "2.1.2", "2.1.3"];

let env: IntegrationEnv;
let world: World;
let webs: WebProc[];
let links: StackLink[];
let queues: Queue[] = [];
const connections: { quit(): Promise<unknown> }[] = [];
let startedAt: number;
let grantStep: string;
/** Per call: the step id and which web server took it. */
const calls: { stepId: string; web: number; ms: number }[] = [];

beforeAll(async () => {
  env = await setupIntegration("multi");
  world = await seedWorld("multi@example.test");
  const childEnv = appEnv({
    databaseUrl: env.database.url,
    redisUrl: process.env.REDIS_URL ?? "redis://127.0.0.1:6379/0",
    redisPrefix: env.redisPrefix,
    dataDir: env.dataDir,
  });
  startedAt = Date.now();
  webs = await Promise.all([startWeb("web-1", childEnv), startWeb("web-2", childEnv)]);
  await Promise.all([startWorkerHost("workers-1", childEnv), startWorkerHost("workers-2", childEnv)]);
  const { createPairingCode } = await import("../../lib/links");
  const polling = async (linkId: string) =>
    (await env.db.link.count({ where: { id: linkId, lastSeenAt: { gt: new Date(Date.now() - 5_000) } } })) === 1;
  links = [];
  for (const [i, web] of webs.entries())
    links.push(await startLink(`multi-link-${i + 1}`, web.url, (await createPairingCode(world.userId)).code, polling));
  const { bullConnection } = await import("../../lib/redis");
  queues = ["dispatch", "scan", "tlog"].map((name) => {
    const bull = bullConnection();
    connections.push(bull.connection);
    return new Queue(name, bull);
  });
}, 120_000);

afterAll(async () => {
  await Promise.all(links?.map((l) => l.home.stop()) ?? []);
  await stopAll();
  for (const q of queues) await q.close();
  for (const c of connections) await c.quit().catch(() => undefined);
  await (await import("../../lib/runs")).dispatchQueue().close();
  await (await import("../../lib/registry")).scanQueue().close();
  await (await import("../../lib/events")).closeEvents();
  await env?.teardown();
});

describe("two web processes, two worker hosts, two Links", () => {
  it("runs 100 calls through both web servers: every step ends once, no job placed twice, charges equal runs", async () => {
    grantStep = await grantWordCount(webs[0]!.url, world);
    const t = Date.now();
    const urls = webs.map((w) => w.url);
    let next = 0;
    const worker = async () => {
      for (let i = next++; i < CALLS; i = next++) {
        const web = i % 2;
        const t0 = Date.now();
        // As a careful agent calls: with a key, again after a 503 (a store slow under load).
        const key = `multi-${i}-${Date.now()}`;
        let answer = await callTool(urls[web]!, world, { text: `call number ${i} of many` }, { key });
        for (let retry = 0; answer.status === 503 && retry < 20; retry++) {
          expect(answer.retryAfter).not.toBeNull();
          await new Promise((r) => setTimeout(r, 500));
          answer = await callTool(urls[web]!, world, { text: `call number ${i} of many` }, { key });
        }
        expect(answer.status, JSON.stringify(answer.body)).toBe(201);
        // Long-poll on the other web server than the one that took the call.
        const done = await waitStep([urls[1 - web]!, urls[web]!], world, answer.body.id!, 90_000);
        expect(done.status).toBe("succeeded");
        calls.push({ stepId: answer.body.id!, web, ms: Date.now() - t0 });
      }
    };
    await Promise.all(Array.from({ length: IN_FLIGHT }, worker));
    await waitStep(urls, world, grantStep);
    expect(calls).toHaveLength(CALLS);
    expect(calls.filter((c) => c.web === 0)).toHaveLength(CALLS / 2);

    const stepIds = [grantStep, ...calls.map((c) => c.stepId)];
    const steps = await env.db.step.findMany({ where: { id: { in: stepIds } }, include: { job: true } });
    expect(steps).toHaveLength(CALLS + 1);
    // Every step ended, once, with exactly one job that one Link placed, started and finished.
    for (const s of steps) {
      expect(s.status).toBe("succeeded");
      expect(s.job?.state).toBe("succeeded");
      expect(s.job?.attempts).toBe(1);
      expect(s.job?.lapsedLinkIds).toEqual([]);
      expect(links.map((l) => l.linkId)).toContain(s.job?.linkId);
    }
    expect(await env.db.runJob.count({ where: { userId: world.userId } })).toBe(CALLS + 1);
    expect(await env.db.stepOutbox.count()).toBe(0);
    // Each Link counted what it ran; together exactly the jobs.
    const ran = await env.db.link.findMany({ where: { userId: world.userId }, select: { jobsRun: true } });
    expect(ran.reduce((n, l) => n + l.jobsRun, 0)).toBe(CALLS + 1);
    // Charges equal runs: one hold and one settlement per job, and the balance moved by their cost.
    const jobIds = steps.map((s) => s.job!.id);
    expect(await env.db.ledgerEntry.count({ where: { jobId: { in: jobIds }, kind: "charge" } })).toBe(CALLS + 1);
    expect(await env.db.ledgerEntry.count({ where: { jobId: { in: jobIds }, kind: "refund" } })).toBe(CALLS + 1);
    const cost = steps.reduce((n, s) => n + (s.job!.costMicros ?? 0n), 0n);
    expect(cost).toBeGreaterThan(0n);
    const { balanceOf } = await import("../../lib/billing/ledger");
    expect(await balanceOf(world.userId)).toBe(world.startBalance - cost);
    for (const l of links) expect(l.run.child.exitCode).toBeNull();
    const ms = calls.map((c) => c.ms).sort((a, b) => a - b);
    const wall = Date.now() - t;
    // The numbers docs/deploy.md quotes (a measurement, not an assertion).
    console.info(
      `multi-instance: ${CALLS} calls, ${IN_FLIGHT} in flight, in ${wall} ms; call to result p50 ${ms[CALLS / 2]} ms, p95 ${ms[Math.floor(CALLS * 0.95)]} ms`,
    );
    // On a quiet machine about 30 s; the bound leaves room for a busy one.
  }, 300_000);

  it("stores each scan once, whichever worker host and web server it went through", async () => {
    const published = await Promise.all(
      VERSIONS.map((v, i) => publishVersion(webs[i % 2]!.url, world, "text-tools", v)),
    );
    for (const p of published) expect(p.status, JSON.stringify(p.body)).toBe(201);
    const { until } = await import("../helpers/link-process");
    const versions = await until(
      "every version's verdict",
      async () => {
        const rows = await env.db.skillVersion.findMany({
          where: { version: { in: VERSIONS } },
          include: { listing: { include: { _count: { select: { findings: true } } } } },
        });
        return rows.length === VERSIONS.length && rows.every((r) => r.status !== "scanning") && rows;
      },
      60_000,
    );
    const SCAN_JOB = (await import("../../lib/jobs")).JOBS.scanVersion.name;
    const scanQueue = queues[1]!;
    const ours = (j: Job) => j.name === SCAN_JOB && versions.some((v) => v.id === j.data.versionId);
    // A verdict is stored before its job is marked completed: wait until no scan of these is left.
    const completed = await until(
      "every scan job of these versions completed",
      async () =>
        (await scanQueue.getJobs(["active", "waiting", "delayed", "prioritized"], 0, 1_000)).filter(ours).length ===
          0 && (await scanQueue.getJobs(["completed"], 0, 1_000)),
      30_000,
    );
    for (const v of versions) {
      expect(v.status).toBe("passed");
      const stores = completed.filter(
        (j: Job) => j.name === SCAN_JOB && j.data.versionId === v.id && j.returnvalue?.stored === true,
      );
      expect(stores).toHaveLength(1);
      expect(v.listing?._count.findings).toBe(stores[0]!.returnvalue.findings);
    }
    // One publish entry per version in the transparency log, though two web servers appended.
    expect(await env.db.logEntry.count({ where: { versionId: { in: versions.map((v) => v.id) } } })).toBe(
      VERSIONS.length,
    );
  });

  it("keeps one schedule per sweep, and each tick ran once, whichever host took it", async () => {
    const elapsed = Date.now() - startedAt;
    const expected: Record<string, string[]> = {
      dispatch: ["dispatch.sweep"],
      scan: ["scan.sweep"],
      tlog: ["tlog.checkpoint"],
    };
    for (const queue of queues) {
      const schedulers = await queue.getJobSchedulers();
      const names = schedulers.map((s) => s.key).sort();
      // One scheduler per name, never two, though two hosts made them.
      expect(new Set(names).size).toBe(names.length);
      for (const name of expected[queue.name] ?? []) expect(names).toContain(name);
      for (const s of schedulers) {
        const every = Number(s.every);
        expect(every).toBeGreaterThan(0);
        const ticks = (await queue.getJobs(["completed", "failed", "active"], 0, 1_000)).filter(
          (j: Job) => j.repeatJobKey === s.key || j.name === s.key,
        );
        // A scheduler's job id names its tick: one job per tick, whichever host ran it.
        const ids = ticks.map((j) => j.id);
        expect(new Set(ids).size).toBe(ids.length);
        const at = ticks.map((j) => j.timestamp);
        expect(new Set(at).size).toBe(at.length);
        expect(ticks.length).toBeGreaterThan(0);
        expect(ticks.length).toBeLessThanOrEqual(Math.floor(elapsed / every) + 2);
      }
    }
  });
});
