// Run jobs for skill.run steps against real PostgreSQL and Redis: placement (own Links first,
// OpenVibe's pool only on operator-approved machines and only for projects that allow it, never
// without a Link), exactly-once results, leases, TTL, late results, and metering that never
// charges twice whatever is retried.
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { setupIntegration, type IntegrationEnv } from "../helpers/integration";
import { claim, ledgerSum, linkFor, ok, pendingStep, report, type TestLink } from "../helpers/runs";

let env: IntegrationEnv;
let runs: typeof import("../../lib/runs");
let ledger: typeof import("../../lib/billing/ledger");
let person: { id: string };
let other: { id: string };
let versionId: string;
let projectId: string;

const DEMO = path.resolve(import.meta.dirname, "../../scripts/demo/skills");
const step = (over: { expiresInMs?: number } = {}) => pendingStep(env, { userId: person.id, projectId, versionId, ...over });
const retire = (...links: TestLink[]) =>
  env.db.link.updateMany({ where: { id: { in: links.map((l) => l.linkId) } }, data: { revokedAt: new Date() } });

beforeAll(async () => {
  env = await setupIntegration("dispatch");
  runs = await import("../../lib/runs");
  ledger = await import("../../lib/billing/ledger");
  const { createUser, getDefaultProject } = await import("../../lib/auth/users");
  const { publishSkill, scanVersion } = await import("../../lib/registry");
  const { loadBundle } = await import("../../lib/contracts");
  const { installSkill } = await import("../../lib/installs");
  person = await createUser({ email: "runner@example.test", name: "Runner", password: null });
  other = await createUser({ email: "pooler@example.test", name: "Pooler", password: null });
  projectId = (await getDefaultProject(person.id))!.id;
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
    const s = await step();
    expect(await runs.submitStepJob(s.id, false)).toEqual({ kind: "no_node" });
    const row = await env.db.step.findUniqueOrThrow({ where: { id: s.id } });
    expect(row.status).toBe("no_node");
    expect(row.message).toMatch(/Run it on your machine/);
    expect(await env.db.runJob.count({ where: { stepId: s.id } })).toBe(0);
    expect(await ledger.balanceOf(person.id)).toBe(before);
  });

  it("a Link with its runner off is not a node, and a person's own Link offering the pool is not one for others", async () => {
    const off = await linkFor(env, person.id, { runner: false });
    const othersUnapproved = await linkFor(env, other.id, { pool: true });
    const s = await step();
    expect((await runs.submitStepJob(s.id, false)).kind).toBe("no_node");
    await retire(off, othersUnapproved);
  });

  it("pins the listing's code and the call, holds the worst case, and the own Link gets it first", async () => {
    const own = await linkFor(env, person.id, { name: "laptop" });
    const pool = await linkFor(env, other.id, { pool: true, approved: true });
    const s = await step();
    expect((await runs.submitStepJob(s.id, false)).kind).toBe("queued");
    const job = await env.db.runJob.findFirstOrThrow({ where: { stepId: s.id } });
    expect(job).toMatchObject({
      class: "function",
      artifactName: "openvibe-skill-runner",
      artifactVersion: "1.0.0",
      ttlMs: 120_000,
      net: "deny",
      versionId,
      tool: "slugify",
    });
    const pins = await env.db.listingCode.findMany({ where: { listing: { versionId } } });
    const inputs = job.inputs as Array<{ name: string; media_id: string; sha256: string }>;
    for (const pin of pins)
      expect(inputs).toContainEqual(expect.objectContaining({ name: pin.name, media_id: pin.mediaId, sha256: pin.sha256 }));
    expect(inputs.map((i) => i.name)).toContain("job.json");
    // Inside the own-first window a pool Link gets nothing.
    expect((await claim(pool)).job).toBeNull();
    const claimed = (await claim(own)).job;
    expect(claimed?.id).toBe(job.id);
    // What the Link receives names the skill version (its integrity) it runs.
    const version = await env.db.skillVersion.findUniqueOrThrow({ where: { id: versionId } });
    expect(claimed).toMatchObject({ skill: { slug: "text-tools", tool: "slugify", integrity: version.integrity } });
    const call = await runs.jobInputBytes(own, job.id, inputs.find((i) => i.name === "job.json")!.media_id);
    expect(JSON.parse(call.toString())).toEqual({ tool: "slugify", entry: "tools/slugify.js", input: { text: "Hello World" } });
    // Another Link cannot read this job's inputs or report its result.
    await expect(runs.jobInputBytes(pool, job.id, inputs[0]!.media_id)).rejects.toMatchObject({ code: "run.job.not_found" });
    await runs.startJob(own, job.id);
    await expect(report(pool, job.id, ok({ x: 1 }))).rejects.toMatchObject({ code: "run.job.not_found" });
    const first = await report(own, job.id, ok({ columns: 2 }));
    const second = await report(own, job.id, ok({ columns: 999 }));
    expect(first).toEqual({ recorded: true, state: "succeeded", late: false });
    expect(second.recorded).toBe(false);
    const done = await env.db.step.findUniqueOrThrow({ where: { id: s.id } });
    expect(done.status).toBe("succeeded");
    expect(done.result).toEqual({ type: "tool_result", untrusted: true, data: { columns: 2 } });
    const settled = await env.db.runJob.findUniqueOrThrow({ where: { id: job.id } });
    expect(settled.costMicros).toBe(200n); // 2 started seconds on an own Link
    expect((await runs.getRunForPerson(person.id, job.id)).ran_on).toBe("your Link laptop");
    await retire(own, pool);
  });

  it("another person's --pool Link gets no job until an operator approves it; then the run says OpenVibe pool", async () => {
    const { approvePoolLink, revokePoolLink } = await import("../../lib/links");
    const candidate = await linkFor(env, other.id, { pool: true, name: "bobs-box" });
    const approvedElsewhere = await linkFor(env, other.id, { pool: true, approved: true });
    const s = await step();
    await runs.submitStepJob(s.id, false);
    const job = await env.db.runJob.findFirstOrThrow({ where: { stepId: s.id } });
    await env.db.runJob.update({ where: { id: job.id }, data: { poolAfter: new Date(Date.now() - 1) } });
    await env.db.link.update({ where: { id: approvedElsewhere.linkId }, data: { revokedAt: new Date() } });
    // Offered, not approved: it serves only its own person, however often it asks.
    for (let i = 0; i < 3; i++) expect((await claim(candidate)).job).toBeNull();
    await approvePoolLink({ cli: true }, candidate.linkId);
    const claimed = (await claim(candidate)).job;
    expect(claimed?.id).toBe(job.id);
    expect((await env.db.runJob.findUniqueOrThrow({ where: { id: job.id } })).placement).toBe("pool");
    await runs.startJob(candidate, job.id);
    await report(candidate, job.id, ok({ fine: true }, 100));
    const view = await runs.getRunForPerson(person.id, job.id);
    expect(view.ran_on).toBe("OpenVibe pool");
    // The pool machine's name and owner are not shown.
    expect(JSON.stringify(view, (_k, v) => (typeof v === "bigint" ? String(v) : v))).not.toContain("bobs-box");
    expect(view.link).toBeNull();
    await revokePoolLink({ cli: true }, candidate.linkId);
    await retire(candidate);
  });

  it("a project that refuses the pool runs only on its person's own Links", async () => {
    const pool = await linkFor(env, other.id, { pool: true, approved: true });
    await runs.setProjectPool(person.id, projectId, false);
    try {
      const s = await step();
      expect((await runs.submitStepJob(s.id, false)).kind).toBe("no_node");
      const own = await linkFor(env, person.id);
      const queued = await step();
      expect((await runs.submitStepJob(queued.id, false)).kind).toBe("queued");
      const job = await env.db.runJob.findFirstOrThrow({ where: { stepId: queued.id } });
      expect(job.poolAllowed).toBe(false);
      await env.db.runJob.update({ where: { id: job.id }, data: { poolAfter: new Date(Date.now() - 1) } });
      expect((await claim(pool)).job).toBeNull();
      expect((await claim(own)).job?.id).toBe(job.id);
      await retire(own);
      await expect(runs.setProjectPool(other.id, projectId, true)).rejects.toMatchObject({ status: 404 });
    } finally {
      await runs.setProjectPool(person.id, projectId, true);
      await retire(pool);
    }
  });
});

describe("a Link that vanishes", () => {
  it("a placed job is placed once more; a started one with no other Link online expires, the hold comes back, and a late result is recorded as late", async () => {
    const a = await linkFor(env, person.id);
    const b = await linkFor(env, person.id);
    const s = await step();
    await runs.submitStepJob(s.id, false);
    const job = (await claim(a)).job!;
    await env.db.runJob.update({ where: { id: job.id }, data: { leaseExpiresAt: new Date(Date.now() - 1) } });
    expect(await runs.onLeaseExpired(job.id)).toBe("requeued");
    // The Link that went silent before starting comes back: the job is not its any more.
    await expect(runs.startJob(a, job.id)).rejects.toMatchObject({ code: "run.job.not_found" });
    expect((await claim(b)).job?.id).toBe(job.id);
    await runs.startJob(b, job.id);
    // The first Link stays silent too: no other Link of the person is online to take it
    // (test/integration/lease-replacement.test.ts covers the one that is).
    await env.db.link.update({ where: { id: a.linkId }, data: { lastSeenAt: new Date(Date.now() - 3_600_000) } });
    await env.db.runJob.update({ where: { id: job.id }, data: { leaseExpiresAt: new Date(Date.now() - 1) } });
    expect(await runs.onLeaseExpired(job.id)).toBe("expired");
    const expired = await env.db.step.findUniqueOrThrow({ where: { id: s.id } });
    expect(expired.status).toBe("expired");
    expect(expired.message).toMatch(/may have happened/);
    expect(await ledgerSum(env, job.id)).toBe(0n);
    const refund = await env.db.ledgerEntry.findFirstOrThrow({ where: { jobId: job.id, kind: "refund" } });
    expect(refund.memo).not.toMatch(/did not run/);
    // Its result arrives after all: recorded truthfully (it ran, late), still not charged.
    await expect(report(b, job.id, ok({ late: true }))).resolves.toEqual({
      recorded: true,
      state: "expired",
      late: true,
    });
    await expect(report(b, job.id, ok({ again: true }))).resolves.toMatchObject({ recorded: false });
    const view = await runs.getRunForPerson(person.id, job.id);
    expect(view).toMatchObject({ state: "expired", result_status: "ok", result_late: true, output: { late: true } });
    expect(await ledgerSum(env, job.id)).toBe(0n);
    expect((await env.db.step.findUniqueOrThrow({ where: { id: s.id } })).message).toMatch(/arrived after/);
    await retire(a, b);
  });

  it("a heartbeat keeps a running job's lease alive, and the TTL never expires a job that is running", async () => {
    const link = await linkFor(env, person.id);
    const s = await step();
    await runs.submitStepJob(s.id, false);
    const job = (await claim(link)).job!;
    await runs.startJob(link, job.id);
    await env.db.runJob.update({
      where: { id: job.id },
      data: { leaseExpiresAt: new Date(Date.now() + 500), expiresAt: new Date(Date.now() - 1) },
    });
    const beat = await runs.heartbeat(link, { runner: "on", runner_epoch: 0, pool: false, running: [job.id] });
    expect(beat.cancel).toEqual([]);
    const renewed = await env.db.runJob.findUniqueOrThrow({ where: { id: job.id } });
    expect(renewed.leaseExpiresAt!.getTime()).toBeGreaterThan(Date.now() + 10_000);
    expect(await runs.expireDueJobs()).toBe(0);
    expect((await runs.sweepDispatch()).ttls).toBe(0);
    expect((await report(link, job.id, ok({ fine: true }))).state).toBe("succeeded");
    await retire(link);
  });
});

describe("metering", () => {
  it("50 jobs finishing at once, each result posted twice: exactly 50 charges, balance exact", async () => {
    const link = await linkFor(env, person.id);
    const startBalance = await ledger.balanceOf(person.id);
    const steps = await Promise.all(Array.from({ length: 50 }, () => step()));
    for (const s of steps) expect((await runs.submitStepJob(s.id, false)).kind).toBe("queued");
    const jobs = [];
    for (let i = 0; i < 50; i++) jobs.push((await claim(link)).job!);
    expect(new Set(jobs.map((j) => j.id)).size).toBe(50);
    await Promise.all(jobs.map((j) => runs.startJob(link, j.id)));
    const results = await Promise.all(
      jobs.flatMap((j) => [report(link, j.id, ok({ n: 1 }, 2500)), report(link, j.id, ok({ n: 1 }, 2500))]),
    );
    expect(results.filter((r) => r.recorded)).toHaveLength(50);
    const ids = jobs.map((j) => j.id);
    expect(await env.db.ledgerEntry.count({ where: { jobId: { in: ids }, kind: "charge" } })).toBe(50);
    expect(await env.db.ledgerEntry.count({ where: { jobId: { in: ids }, kind: "refund" } })).toBe(50);
    // 3 started seconds at the own-Link rate, per job.
    expect(await ledger.balanceOf(person.id)).toBe(startBalance - 50n * 300n);
    await retire(link);
  });

  it("runs nothing for a step whose skill was disabled after the call", async () => {
    const link = await linkFor(env, person.id);
    const s = await step();
    const install = await env.db.install.findFirstOrThrow({ where: { userId: person.id } });
    await env.db.install.update({ where: { id: install.id }, data: { enabled: false } });
    const outcome = await runs.submitStepJob(s.id, false);
    expect(outcome.kind).toBe("blocked");
    expect(await env.db.runJob.count({ where: { stepId: s.id } })).toBe(0);
    expect((await env.db.step.findUniqueOrThrow({ where: { id: s.id } })).status).toBe("failed");
    await env.db.install.update({ where: { id: install.id }, data: { enabled: true } });
    await retire(link);
  });

  it("refuses to submit when the worst case is not covered, with a top-up hint", async () => {
    const users = await import("../../lib/auth/users");
    const poor = await users.createUser({ email: "poor@example.test", name: "Poor", password: null });
    const project = (await users.getDefaultProject(poor.id))!;
    await (await import("../../lib/installs")).installSkill({ userId: poor.id, slug: "text-tools", version: "2.0.1" });
    await linkFor(env, poor.id);
    const s = await pendingStep(env, { userId: poor.id, projectId: project.id, versionId });
    expect(await runs.submitStepJob(s.id, false)).toEqual({ kind: "insufficient_balance" });
    const row = await env.db.step.findUniqueOrThrow({ where: { id: s.id } });
    expect(row.status).toBe("insufficient_balance");
    expect(row.message).toMatch(/Top up/);
    expect(await ledger.balanceOf(poor.id)).toBe(0n);
  });
});
