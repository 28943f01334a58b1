// PostgreSQL is the record; Redis only wakes things up. Under a running worker host, every Redis
// key of this test's prefix is deleted (nothing outside it is touched): the repeating sweeps are
// back within one interval, and nothing is left stuck: an approval window that ran out, a job past
// its TTL, a claimed job whose Link went silent, and a grant call whose submission was owed all end
// where their deadlines say, with no timer left to help.
import { randomBytes } from "node:crypto";
import path from "node:path";
import { Queue } from "bullmq";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { setupIntegration, type IntegrationEnv } from "../helpers/integration";
import { until } from "../helpers/link-process";
import { ledgerSum, linkFor, pendingStep } from "../helpers/runs";

const EVERY_MS = 2_000;
let env: IntegrationEnv;
let host: { close(): Promise<void> };
let probe: Queue;
let probeConnection: { quit(): Promise<unknown> };
let person: { id: string };
let projectId: string;
let versionId: string;
const canary = `test:redis-loss-canary:${randomBytes(4).toString("hex")}`;

async function deletePrefix(prefix: string): Promise<number> {
  const { redis } = await import("../../lib/redis");
  let cursor = "0";
  let deleted = 0;
  do {
    const [next, keys] = await redis().scan(cursor, "MATCH", `${prefix}:*`, "COUNT", 500);
    for (const key of keys) if (!key.startsWith(`${prefix}:`)) throw new Error(`refusing to delete ${key}`);
    if (keys.length) deleted += await redis().del(...keys);
    cursor = next;
  } while (cursor !== "0");
  return deleted;
}

beforeAll(async () => {
  env = await setupIntegration("redisloss");
  const { createUser, getDefaultProject } = await import("../../lib/auth/users");
  const { loadBundle } = await import("../../lib/contracts");
  const { publishSkill, scanVersion } = await import("../../lib/registry");
  const { installSkill } = await import("../../lib/installs");
  const { recordTopUp } = await import("../../lib/billing/ledger");
  person = await createUser({ email: "redisloss@example.test", name: "Redis Loss", password: null });
  projectId = (await getDefaultProject(person.id))!.id;
  const bundle = await loadBundle(path.resolve(import.meta.dirname, "../../scripts/demo/skills/text-tools"));
  if (!bundle.ok) throw new Error("bundle");
  versionId = (await publishSkill({ ownerId: person.id, document: bundle.document, scan: "none" })).versionId;
  await scanVersion(versionId);
  await installSkill({ userId: person.id, slug: "text-tools", version: "2.0.1" });
  await recordTopUp({ userId: person.id, amountMicros: 5_000_000n, paymentId: "redisloss", memo: "test" });

  const { definitions } = await import("../../workers/definitions");
  const { startWorkers } = await import("../../workers/registry");
  const fast = definitions.map((d) => ({ ...d, schedules: d.schedules?.map((s) => ({ ...s, everyMs: EVERY_MS })) }));
  host = startWorkers(fast, { watchEveryMs: EVERY_MS });
  const { bullConnection } = await import("../../lib/redis");
  const bull = bullConnection();
  probeConnection = bull.connection;
  probe = new Queue("dispatch", bull);
  await until("the sweep schedule", async () => (await probe.getJobSchedulers()).length > 0, 20_000);
}, 120_000);

afterAll(async () => {
  await host?.close();
  await probe?.close();
  await probeConnection?.quit();
  const { redis } = await import("../../lib/redis");
  await redis().del(canary);
  await (await import("../../lib/runs")).dispatchQueue().close();
  await (await import("../../lib/registry")).scanQueue().close();
  await (await import("../../lib/events")).closeEvents();
  await env?.teardown();
});

describe("losing every Redis key", () => {
  it("brings the sweeps back within one interval and leaves no step stuck", async () => {
    const runs = await import("../../lib/runs");
    const lifecycle = await import("../../lib/runs/lifecycle");
    const { redis } = await import("../../lib/redis");
    await redis().set(canary, "outside the prefix");
    const link = await linkFor(env, person.id);

    // Things whose deadlines pass while their timers are gone.
    const waiting = await pendingStep(env, { userId: person.id, projectId, versionId, expiresInMs: 1_000 });
    const late = await pendingStep(env, { userId: person.id, projectId, versionId });
    await runs.submitStepJob(late.id, false);
    const lateJob = await env.db.runJob.findFirstOrThrow({ where: { stepId: late.id } });
    const silent = await pendingStep(env, { userId: person.id, projectId, versionId });
    await runs.submitStepJob(silent.id, false);
    const silentJob = await env.db.runJob.findFirstOrThrow({ where: { stepId: silent.id } });
    await env.db.runJob.update({ where: { id: lateJob.id }, data: { expiresAt: new Date(Date.now() + 1_000) } });
    await env.db.runJob.update({
      where: { id: silentJob.id },
      data: { state: "placed", linkId: link.linkId, attempts: 3, leaseExpiresAt: new Date(Date.now() + 1_000) },
    });
    // A grant call stored with its outbox row, as if its process had died before submitting it.
    const { createAgent } = await import("../../lib/agents");
    const agent = (await createAgent(person.id, { name: "owed-bot" })).agent;
    const owed = await lifecycle.createStep(
      {
        userId: person.id,
        agentId: agent.id,
        projectId,
        versionId,
        kind: "skill.run",
        label: "running a skill's code in a sandbox",
        target: "text-tools@2.0.1 slugify",
        tool: "slugify",
        input: { text: "owed" },
        net: "deny",
        approval: "grant",
        expiresAt: new Date(Date.now() + 600_000),
      },
      "submit",
    );

    const deleted = await deletePrefix(env.redisPrefix);
    const flushedAt = Date.now();
    expect(deleted).toBeGreaterThan(0);
    expect(await redis().get(canary)).toBe("outside the prefix");
    expect(await probe.getJobSchedulers()).toEqual([]);

    await until("the sweep schedules to come back", async () => (await probe.getJobSchedulers()).length > 0, 10_000);
    expect(Date.now() - flushedAt).toBeLessThan(EVERY_MS + 1_500);
    const scan = new Queue("scan", { connection: probe.opts.connection, prefix: probe.opts.prefix });
    await until("the scan sweep schedule too", async () => (await scan.getJobSchedulers()).length > 0, 10_000);
    await scan.close();

    let status: Record<string, string> = {};
    await until(
      "every deadline to be met by the sweep",
      async () => {
        const rows = await env.db.step.findMany({ where: { id: { in: [waiting.id, late.id, silent.id, owed.id] } } });
        status = Object.fromEntries(rows.map((r) => [r.id, r.status]));
        return (
          status[waiting.id] === "expired" &&
          status[late.id] === "expired" &&
          status[silent.id] === "expired" &&
          status[owed.id] === "queued"
        );
      },
      4 * EVERY_MS + 5_000,
    ).catch((err: Error) => {
      throw new Error(
        `${err.message}: ${JSON.stringify([status[waiting.id], status[late.id], status[silent.id], status[owed.id]])}`,
      );
    });
    for (const job of [lateJob, silentJob]) expect(await ledgerSum(env, job.id)).toBe(0n);
    expect(await env.db.stepOutbox.count({ where: { stepId: owed.id } })).toBe(0);
    expect(await redis().get(canary)).toBe("outside the prefix");
  });
});
