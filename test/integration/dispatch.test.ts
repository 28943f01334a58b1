// Run jobs for skill.run steps against real PostgreSQL and Redis: placement (own Links first, then
// the pool, never without a Link), exactly-once results, leases, TTL, and metering that never
// charges twice whatever is retried.
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { setupIntegration, type IntegrationEnv } from "../helpers/integration";

let env: IntegrationEnv;
let runs: typeof import("../../lib/runs");
let ledger: typeof import("../../lib/billing/ledger");
let person: { id: string };
let other: { id: string };
let versionId: string;
let projectId: string;

const DEMO = path.resolve(import.meta.dirname, "../../skills/demo");

async function linkFor(userId: string, opts: { runner?: boolean; pool?: boolean } = {}) {
  const link = await env.db.link.create({
    data: {
      userId,
      name: "machine",
      publicKey: `k${Math.random().toString(36).slice(2)}`.padEnd(43, "x").slice(0, 43),
      runnerEnabled: opts.runner ?? true,
      poolOffer: opts.pool ?? false,
      lastSeenAt: new Date(),
    },
  });
  return { linkId: link.id, userId, runnerEnabled: link.runnerEnabled, poolOffer: link.poolOffer };
}

async function pendingStep(userId = person.id, project = projectId) {
  return env.db.step.create({
    data: {
      userId,
      projectId: project,
      versionId,
      kind: "skill.run",
      label: "running a skill's code in a sandbox",
      target: "text-tools@2.0.1 slugify",
      tool: "slugify",
      input: { text: "Hello World" },
      net: "deny",
      expiresAt: new Date(Date.now() + 600_000),
    },
  });
}

const ok = (output: unknown, wall = 1500) => ({
  status: "ok" as const,
  output,
  stderr: "",
  exit: 0,
  wall_ms: wall,
  max_rss_bytes: 1000,
});

beforeAll(async () => {
  env = await setupIntegration("dispatch");
  runs = await import("../../lib/runs");
  ledger = await import("../../lib/billing/ledger");
  const { createUser, getDefaultProject } = await import("../../lib/auth/users");
  const { publishSkill } = await import("../../lib/registry");
  const { loadBundle } = await import("../../lib/contracts");
  person = await createUser({ email: "runner@example.test", name: "Runner", password: null });
  other = await createUser({ email: "pooler@example.test", name: "Pooler", password: null });
  projectId = (await getDefaultProject(person.id))!.id;
  const { scanVersion } = await import("../../lib/registry");
  const { installSkill } = await import("../../lib/installs");
  const bundle = await loadBundle(path.join(DEMO, "text-tools"));
  if (!bundle.ok) throw new Error("bundle");
  versionId = (await publishSkill({ ownerId: person.id, document: bundle.document, scan: "none" })).versionId;
  expect((await scanVersion(versionId)).status).toBe("passed");
  for (const who of [person, other])
    await installSkill({ userId: who.id, slug: "text-tools", version: bundle.document.version });
  await ledger.recordTopUp({ userId: person.id, amountMicros: 10_000_000n, paymentId: "seed-topup", memo: "test" });
}, 120_000);

afterAll(async () => {
  await runs.dispatchQueue().close();
  await (await import("../../lib/registry")).scanQueue().close();
  await (await import("../../lib/events")).closeEvents();
  await env?.teardown();
});

describe("placement", () => {
  it("with no Link online the step ends no_node and nothing is queued or charged", async () => {
    const before = await ledger.balanceOf(person.id);
    const step = await pendingStep();
    expect(await runs.submitStepJob(step.id, false)).toEqual({ kind: "no_node" });
    const row = await env.db.step.findUniqueOrThrow({ where: { id: step.id } });
    expect(row.status).toBe("no_node");
    expect(row.message).toMatch(/Run it on your machine/);
    expect(await env.db.runJob.count({ where: { stepId: step.id } })).toBe(0);
    expect(await ledger.balanceOf(person.id)).toBe(before);
  });

  it("a Link with its runner off is not a node", async () => {
    const off = await linkFor(person.id, { runner: false });
    const step = await pendingStep();
    expect((await runs.submitStepJob(step.id, false)).kind).toBe("no_node");
    await env.db.link.update({ where: { id: off.linkId }, data: { revokedAt: new Date() } });
  });

  it("pins the listing's code and the call, holds the worst case, and the own Link gets it first", async () => {
    const own = await linkFor(person.id);
    const pool = await linkFor(other.id, { pool: true });
    const step = await pendingStep();
    const outcome = await runs.submitStepJob(step.id, false);
    expect(outcome.kind).toBe("queued");
    const job = await env.db.runJob.findFirstOrThrow({ where: { stepId: step.id } });
    expect(job).toMatchObject({
      class: "function",
      artifactName: "openvibe-skill-runner",
      artifactVersion: "1.0.0",
      ttlMs: 120_000,
      net: "deny",
    });
    const pins = await env.db.listingCode.findMany({ where: { listing: { versionId } } });
    const inputs = job.inputs as Array<{ name: string; media_id: string; sha256: string }>;
    for (const pin of pins)
      expect(inputs).toContainEqual(
        expect.objectContaining({ name: pin.name, media_id: pin.mediaId, sha256: pin.sha256 }),
      );
    expect(inputs.map((i) => i.name)).toContain("job.json");
    // Inside the own-first window a pool Link gets nothing.
    expect(await runs.pollForJob(pool, 0)).toBeNull();
    const claimed = await runs.pollForJob(own, 0);
    expect(claimed?.id).toBe(job.id);
    const call = await runs.jobInputBytes(own, job.id, inputs.find((i) => i.name === "job.json")!.media_id);
    expect(JSON.parse(call.toString())).toEqual({
      tool: "slugify",
      entry: "tools/slugify.js",
      input: { text: "Hello World" },
    });
    // Another Link cannot read this job's inputs or report its result.
    await expect(runs.jobInputBytes(pool, job.id, inputs[0]!.media_id)).rejects.toMatchObject({
      code: "run.job.not_found",
    });
    await runs.startJob(own, job.id);
    await expect(runs.recordResult(pool, job.id, ok({ x: 1 }))).rejects.toMatchObject({ code: "run.job.not_found" });
    const first = await runs.recordResult(own, job.id, ok({ columns: 2 }));
    const second = await runs.recordResult(own, job.id, ok({ columns: 999 }));
    expect(first).toEqual({ recorded: true, state: "succeeded" });
    expect(second.recorded).toBe(false);
    const done = await env.db.step.findUniqueOrThrow({ where: { id: step.id } });
    expect(done.status).toBe("succeeded");
    expect(done.result).toEqual({ type: "tool_result", untrusted: true, data: { columns: 2 } });
    const settled = await env.db.runJob.findUniqueOrThrow({ where: { id: job.id } });
    expect(settled.costMicros).toBe(200n); // 2 started seconds on an own Link
    await env.db.link.updateMany({ where: { id: { in: [own.linkId, pool.linkId] } }, data: { revokedAt: new Date() } });
  });

  it("a pool Link takes the job when the person has no Link of their own", async () => {
    const pool = await linkFor(other.id, { pool: true });
    const step = await pendingStep();
    await runs.submitStepJob(step.id, false);
    const claimed = await runs.pollForJob(pool, 0);
    expect(claimed).not.toBeNull();
    expect((await env.db.runJob.findUniqueOrThrow({ where: { id: claimed!.id } })).placement).toBe("pool");
    await runs.startJob(pool, claimed!.id);
    await runs.recordResult(pool, claimed!.id, ok({ fine: true }, 100));
    await env.db.link.update({ where: { id: pool.linkId }, data: { revokedAt: new Date() } });
  });
});

describe("a Link that vanishes", () => {
  it("loses its lease: the job is placed once more, then expires; no duplicate result, no lost step", async () => {
    const a = await linkFor(person.id);
    const b = await linkFor(person.id);
    const step = await pendingStep();
    await runs.submitStepJob(step.id, false);
    const job = (await runs.pollForJob(a, 0))!;
    await runs.startJob(a, job.id);
    const later = new Date(Date.now() + 10 * 60_000);
    await env.db.runJob.update({ where: { id: job.id }, data: { leaseExpiresAt: new Date(Date.now() - 1) } });
    expect(await runs.onLeaseExpired(job.id)).toBe("requeued");
    expect((await env.db.step.findUniqueOrThrow({ where: { id: step.id } })).status).toBe("queued");
    // The vanished Link comes back late: its result is refused.
    await expect(runs.recordResult(a, job.id, ok({ late: true }))).rejects.toMatchObject({ code: "run.job.not_found" });
    const again = (await runs.pollForJob(b, 0))!;
    expect(again.id).toBe(job.id);
    await env.db.runJob.update({ where: { id: job.id }, data: { leaseExpiresAt: new Date(Date.now() - 1) } });
    expect(await runs.onLeaseExpired(job.id, later)).toBe("expired");
    const expired = await env.db.step.findUniqueOrThrow({ where: { id: step.id } });
    expect(expired.status).toBe("expired");
    await expect(runs.recordResult(b, job.id, ok({ late: true }))).resolves.toMatchObject({ recorded: false });
    // The hold came back in full: nothing ran to the end.
    const entries = await env.db.ledgerEntry.findMany({ where: { jobId: job.id } });
    expect(entries.reduce((n, e) => n + e.amountMicros, 0n)).toBe(0n);
    await env.db.link.updateMany({ where: { id: { in: [a.linkId, b.linkId] } }, data: { revokedAt: new Date() } });
  });
});

describe("metering", () => {
  it("50 jobs finishing at once, each result posted twice: exactly 50 charges, balance exact", async () => {
    const link = await linkFor(person.id);
    const startBalance = await ledger.balanceOf(person.id);
    const steps = await Promise.all(Array.from({ length: 50 }, () => pendingStep()));
    for (const s of steps) expect((await runs.submitStepJob(s.id, false)).kind).toBe("queued");
    const jobs = [];
    for (let i = 0; i < 50; i++) jobs.push((await runs.pollForJob(link, 0))!);
    expect(new Set(jobs.map((j) => j.id)).size).toBe(50);
    await Promise.all(jobs.map((j) => runs.startJob(link, j.id)));
    const results = await Promise.all(
      jobs.flatMap((j) => [
        runs.recordResult(link, j.id, ok({ n: 1 }, 2500)),
        runs.recordResult(link, j.id, ok({ n: 1 }, 2500)),
      ]),
    );
    expect(results.filter((r) => r.recorded)).toHaveLength(50);
    const ids = jobs.map((j) => j.id);
    const charges = await env.db.ledgerEntry.findMany({ where: { jobId: { in: ids }, kind: "charge" } });
    expect(charges).toHaveLength(50);
    const refunds = await env.db.ledgerEntry.findMany({ where: { jobId: { in: ids }, kind: "refund" } });
    expect(refunds).toHaveLength(50);
    // 3 started seconds at the own-Link rate, per job.
    expect(await ledger.balanceOf(person.id)).toBe(startBalance - 50n * 300n);
  });

  it("runs nothing for a step whose skill was disabled after the call", async () => {
    const link = await linkFor(person.id);
    const step = await pendingStep();
    const install = await env.db.install.findFirstOrThrow({ where: { userId: person.id } });
    await env.db.install.update({ where: { id: install.id }, data: { enabled: false } });
    const outcome = await runs.submitStepJob(step.id, false);
    expect(outcome.kind).toBe("blocked");
    expect(await env.db.runJob.count({ where: { stepId: step.id } })).toBe(0);
    expect((await env.db.step.findUniqueOrThrow({ where: { id: step.id } })).status).toBe("failed");
    await env.db.install.update({ where: { id: install.id }, data: { enabled: true } });
    await env.db.link.update({ where: { id: link.linkId }, data: { revokedAt: new Date() } });
  });

  it("refuses to submit when the worst case is not covered, with a top-up hint", async () => {
    const poor = await (
      await import("../../lib/auth/users")
    ).createUser({ email: "poor@example.test", name: "Poor", password: null });
    const project = (await (await import("../../lib/auth/users")).getDefaultProject(poor.id))!;
    await (await import("../../lib/installs")).installSkill({ userId: poor.id, slug: "text-tools", version: "2.0.1" });
    await linkFor(poor.id);
    const step = await pendingStep(poor.id, project.id);
    const outcome = await runs.submitStepJob(step.id, false);
    expect(outcome).toEqual({ kind: "insufficient_balance" });
    const row = await env.db.step.findUniqueOrThrow({ where: { id: step.id } });
    expect(row.status).toBe("insufficient_balance");
    expect(row.message).toMatch(/Top up/);
    expect(await ledger.balanceOf(poor.id)).toBe(0n);
  });
});
