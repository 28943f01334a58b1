// Instant disable, on the server: disabling or uninstalling a skill, revoking a grant, retiring a
// version and revoking a Link each cancel the jobs that can no longer run at once (hold returned),
// the Link holding one hears it at its next heartbeat, its result is refused, and a retired
// version's integrity reaches every Link that was given one of its jobs.
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { setupIntegration, type IntegrationEnv } from "../helpers/integration";
import { claim, ledgerSum, linkFor, ok, pendingStep, report, type TestLink } from "../helpers/runs";

let env: IntegrationEnv;
let runs: typeof import("../../lib/runs");
let installs: typeof import("../../lib/installs");
let person: { id: string };
let projectId: string;
let versionId: string;
let installId: string;
let link: TestLink;

async function queuedJob(tool = "slugify") {
  const s = await pendingStep(env, { userId: person.id, projectId, versionId, tool });
  expect((await runs.submitStepJob(s.id, false)).kind).toBe("queued");
  return env.db.runJob.findFirstOrThrow({ where: { stepId: s.id } });
}

async function runningJob(tool = "slugify") {
  const job = await queuedJob(tool);
  expect((await claim(link)).job?.id).toBe(job.id);
  await runs.startJob(link, job.id);
  return job;
}

const beat = (running: string[]) => runs.heartbeat(link, { runner: "on", runner_epoch: 0, pool: false, running });

async function expectWithdrawn(jobId: string, code: "run.job.cancelled" | "run.job.revoked") {
  const job = await env.db.runJob.findUniqueOrThrow({ where: { id: jobId }, include: { step: true } });
  expect([job.state, job.cancelCode, job.step?.status]).toEqual(["cancelled", code, "cancelled"]);
  expect(await ledgerSum(env, jobId)).toBe(0n);
  const refund = await env.db.ledgerEntry.findFirstOrThrow({ where: { jobId, kind: "refund" } });
  expect(refund.memo).toBe("Run cancelled: hold returned");
}

beforeAll(async () => {
  env = await setupIntegration("withdraw");
  runs = await import("../../lib/runs");
  installs = await import("../../lib/installs");
  const { createUser, getDefaultProject } = await import("../../lib/auth/users");
  const { publishSkill, scanVersion } = await import("../../lib/registry");
  const { loadBundle } = await import("../../lib/contracts");
  const { recordTopUp } = await import("../../lib/billing/ledger");
  person = await createUser({ email: "withdraw@example.test", name: "Withdraw", password: null });
  projectId = (await getDefaultProject(person.id))!.id;
  const bundle = await loadBundle(path.resolve(import.meta.dirname, "../../scripts/demo/skills/text-tools"));
  if (!bundle.ok) throw new Error("bundle");
  versionId = (await publishSkill({ ownerId: person.id, document: bundle.document, scan: "none" })).versionId;
  await scanVersion(versionId);
  installId = (await installs.installSkill({ userId: person.id, slug: "text-tools", version: "2.0.1" })).install.id;
  await recordTopUp({ userId: person.id, amountMicros: 10_000_000n, paymentId: "withdraw", memo: "test" });
  link = await linkFor(env, person.id);
}, 120_000);

afterAll(async () => {
  await runs.dispatchQueue().close();
  await (await import("../../lib/registry")).scanQueue().close();
  await (await import("../../lib/events")).closeEvents();
  await env?.teardown();
});

describe("instant disable", () => {
  it("disabling a skill cancels its queued and running jobs and its pending steps; the Link hears it and its result is refused", async () => {
    const running = await runningJob();
    const queued = await queuedJob();
    const pending = await pendingStep(env, { userId: person.id, projectId, versionId });
    await installs.setInstallEnabled({ userId: person.id, installId, enabled: false });
    await expectWithdrawn(queued.id, "run.job.cancelled");
    await expectWithdrawn(running.id, "run.job.cancelled");
    expect((await env.db.step.findUniqueOrThrow({ where: { id: pending.id } })).status).toBe("cancelled");
    const answer = await beat([running.id]);
    expect(answer.cancel).toEqual([{ id: running.id, code: "run.job.cancelled", message: expect.stringMatching(/disabled/) }]);
    await expect(report(link, running.id, ok({ late: true }))).rejects.toMatchObject({
      code: "run.job.cancelled",
      status: 409,
    });
    await expect(runs.startJob(link, running.id)).rejects.toMatchObject({ code: "run.job.cancelled" });
    // A queued job never starts: no Link is given it.
    expect((await claim(link)).job).toBeNull();
    await installs.setInstallEnabled({ userId: person.id, installId, enabled: true });
  });

  it("revoking an always-allow grant cancels that tool's runs still on their way", async () => {
    const grant = await installs.grantAlwaysAllow({ userId: person.id, versionId, tool: "word_count" });
    const counted = await runningJob("word_count");
    const other = await queuedJob("slugify");
    await installs.revokeGrant({ userId: person.id, grantId: grant.id });
    await expectWithdrawn(counted.id, "run.job.cancelled");
    expect((await env.db.runJob.findUniqueOrThrow({ where: { id: other.id } })).state).toBe("queued");
    await runs.withdraw({ userId: person.id, versionIds: [versionId] }, "disabled");
  });

  it("revoking a Link cancels every job it holds", async () => {
    const spare = await linkFor(env, person.id);
    const job = await queuedJob();
    expect((await claim(spare)).job?.id).toBe(job.id);
    const { revokeLink } = await import("../../lib/links");
    await revokeLink(person.id, spare.linkId);
    await expectWithdrawn(job.id, "run.job.cancelled");
  });

  it("uninstalling cancels too, and the sweep withdraws whatever a lost cancellation left", async () => {
    const job = await queuedJob();
    // As if the cancellation after a disable had been cut off: the install is off, the job queued.
    await env.db.install.update({ where: { id: installId }, data: { enabled: false } });
    expect((await runs.sweepDispatch()).withdrawn).toBe(1);
    await expectWithdrawn(job.id, "run.job.cancelled");
    await env.db.install.update({ where: { id: installId }, data: { enabled: true } });
    const again = await runningJob();
    await installs.uninstallSkill({ userId: person.id, installId });
    await expectWithdrawn(again.id, "run.job.cancelled");
    installId = (await installs.installSkill({ userId: person.id, slug: "text-tools", version: "2.0.1" })).install.id;
  });

  it("retiring a version withdraws its jobs as revoked, and every Link given one hears its integrity", async () => {
    const held = await queuedJob();
    expect((await claim(link)).job?.id).toBe(held.id);
    const { retireVersion } = await import("../../lib/registry");
    await retireVersion({ ownerId: person.id, slug: "text-tools", version: "2.0.1" });
    await expectWithdrawn(held.id, "run.job.revoked");
    const version = await env.db.skillVersion.findUniqueOrThrow({ where: { id: versionId } });
    const answer = await beat([held.id]);
    expect(answer.revoked).toContain(version.integrity);
    expect(answer.cancel).toEqual([{ id: held.id, code: "run.job.revoked", message: expect.stringMatching(/retired/) }]);
    expect((await claim(link)).revoked).toContain(version.integrity);
    await expect(runs.startJob(link, held.id)).rejects.toMatchObject({ code: "run.job.revoked", status: 409 });
  });

  it("a Link hears of a retired or failed version only when it was given one of its jobs in the last 15 minutes", async () => {
    const version = await env.db.skillVersion.findUniqueOrThrow({ where: { id: versionId } });
    const job = await env.db.runJob.findFirstOrThrow({ where: { versionId, linkId: link.linkId } });
    const other = await linkFor(env, person.id);
    const otherBeat = () => runs.heartbeat(other, { runner: "on", runner_epoch: 0, pool: false, running: [] });
    expect((await otherBeat()).revoked).not.toContain(version.integrity);

    // Retired a minute and more before the window: no job of it can be that recent.
    const old = new Date(Date.now() - 20 * 60_000);
    await env.db.skillVersion.update({ where: { id: versionId }, data: { retiredAt: old } });
    await env.db.runJob.updateMany({ where: { versionId }, data: { createdAt: old } });
    expect((await beat([])).revoked).not.toContain(version.integrity);

    // Failed, with a job given a moment ago: heard; the Link that was never given one still hears nothing.
    await env.db.skillVersion.update({ where: { id: versionId }, data: { retiredAt: null, status: "failed" } });
    await env.db.runJob.update({ where: { id: job.id }, data: { createdAt: new Date() } });
    expect((await beat([])).revoked).toContain(version.integrity);
    expect((await otherBeat()).revoked).not.toContain(version.integrity);
  });
});
