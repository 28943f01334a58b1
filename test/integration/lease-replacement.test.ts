// A Link that dies in the middle of a job (issue 19): when its running lease runs out, the job goes
// to another of its person's own Links that is online, or expires with its hold back. The silent
// Link never gets it again and its result is refused, so the run is charged once at most.
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { setupIntegration, type IntegrationEnv } from "../helpers/integration";
import { claim, ledgerSum, linkFor, ok, pendingStep, report, type TestLink } from "../helpers/runs";

let env: IntegrationEnv;
let runs: typeof import("../../lib/runs");
let person: { id: string };
let stranger: { id: string };
let versionId: string;
let projectId: string;

const retire = (...links: TestLink[]) =>
  env.db.link.updateMany({ where: { id: { in: links.map((l) => l.linkId) } }, data: { revokedAt: new Date() } });
const lapse = (jobId: string) =>
  env.db.runJob.update({ where: { id: jobId }, data: { leaseExpiresAt: new Date(Date.now() - 1) } });
/** Settlements of a job's hold: exactly one once it ends, whoever ran it. */
const settlements = (jobId: string) => env.db.ledgerEntry.count({ where: { jobId, kind: "refund" } });

/** A job of a new step, claimed and started by `link`. */
async function runningOn(link: TestLink) {
  const s = await pendingStep(env, { userId: person.id, projectId, versionId });
  expect((await runs.submitStepJob(s.id, false)).kind).toBe("queued");
  const job = (await claim(link)).job!;
  expect(job).toBeTruthy();
  await runs.startJob(link, job.id);
  return { stepId: s.id, jobId: job.id };
}

beforeAll(async () => {
  env = await setupIntegration("replace");
  runs = await import("../../lib/runs");
  const { createUser, getDefaultProject } = await import("../../lib/auth/users");
  const { publishSkill, scanVersion } = await import("../../lib/registry");
  const { loadBundle } = await import("../../lib/contracts");
  const { installSkill } = await import("../../lib/installs");
  const { recordTopUp } = await import("../../lib/billing/ledger");
  person = await createUser({ email: "replace@example.test", name: "Replace", password: null });
  stranger = await createUser({ email: "pool-owner@example.test", name: "Pool", password: null });
  projectId = (await getDefaultProject(person.id))!.id;
  const bundle = await loadBundle(path.resolve(import.meta.dirname, "../../scripts/demo/skills/text-tools"));
  if (!bundle.ok) throw new Error("bundle");
  versionId = (await publishSkill({ ownerId: person.id, document: bundle.document, scan: "none" })).versionId;
  await scanVersion(versionId);
  await installSkill({ userId: person.id, slug: "text-tools", version: bundle.document.version });
  await recordTopUp({ userId: person.id, amountMicros: 10_000_000n, paymentId: "replace", memo: "test" });
}, 120_000);

afterAll(async () => {
  await runs.dispatchQueue().close();
  await (await import("../../lib/registry")).scanQueue().close();
  await (await import("../../lib/events")).closeEvents();
  await env?.teardown();
});

describe("a Link that dies while running a job", () => {
  it("hands the job to the person's other Link; the dead Link's result is refused; charged once", async () => {
    const dead = await linkFor(env, person.id, { name: "dead" });
    const other = await linkFor(env, person.id, { name: "other" });
    const { jobId } = await runningOn(dead);
    await lapse(jobId);
    expect(await runs.onLeaseExpired(jobId)).toBe("requeued");
    const queued = await env.db.runJob.findUniqueOrThrow({ where: { id: jobId }, include: { step: true } });
    expect([queued.state, queued.step?.status, queued.linkId]).toEqual(["queued", "queued", null]);
    expect(queued.lapsedLinkIds).toEqual([dead.linkId]);
    expect(queued.step?.message).toMatch(/another of your Links/);
    // The dead Link, were it to come back, never gets it again, and hears it is no longer its.
    expect((await claim(dead)).job).toBeNull();
    const beat = await runs.heartbeat(dead, { runner: "on", runner_epoch: 0, pool: false, running: [jobId] });
    expect(beat.cancel.map((c) => c.id)).toEqual([jobId]);
    expect((await claim(other)).job?.id).toBe(jobId);
    await runs.startJob(other, jobId);
    // The dead Link's late result: not its job any more (the Link drops it as gone).
    await expect(report(dead, jobId, ok({ from: "dead" }))).rejects.toMatchObject({
      code: "run.job.not_found",
    });
    await expect(report(other, jobId, ok({ from: "other" }, 1500))).resolves.toMatchObject({
      recorded: true,
      state: "succeeded",
    });
    await expect(report(dead, jobId, ok({ from: "dead" }))).rejects.toMatchObject({
      code: "run.job.not_found",
    });
    const done = await env.db.runJob.findUniqueOrThrow({ where: { id: jobId }, include: { step: true } });
    expect([done.state, done.step?.status, done.linkId]).toEqual(["succeeded", "succeeded", other.linkId]);
    expect(done.output).toEqual({ from: "other" });
    expect(await settlements(jobId)).toBe(1);
    // 2 started seconds at the own-Link rate, the rest of the hold back.
    expect(await ledgerSum(env, jobId)).toBe(-200n);
    expect((await env.db.link.findUniqueOrThrow({ where: { id: dead.linkId } })).jobsRun).toBe(0);
    await retire(dead, other);
  });

  it("expires with the hold back when the person has no other Link online (a pool machine does not count)", async () => {
    const dead = await linkFor(env, person.id);
    const offline = await linkFor(env, person.id);
    await env.db.link.update({ where: { id: offline.linkId }, data: { lastSeenAt: new Date(Date.now() - 3_600_000) } });
    const off = await linkFor(env, person.id, { runner: false });
    const pool = await linkFor(env, stranger.id, { pool: true, approved: true });
    const { stepId, jobId } = await runningOn(dead);
    await lapse(jobId);
    // Through the sweep, as after a lost timer.
    expect((await runs.sweepDispatch()).leases).toBe(1);
    const job = await env.db.runJob.findUniqueOrThrow({ where: { id: jobId } });
    expect(job.state).toBe("expired");
    expect((await env.db.step.findUniqueOrThrow({ where: { id: stepId } })).status).toBe("expired");
    expect(await ledgerSum(env, jobId)).toBe(0n);
    expect(await settlements(jobId)).toBe(1);
    await retire(dead, offline, off, pool);
  });

  it("expires once it has no placements or no time left, and a second silent Link is not given it either", async () => {
    const a = await linkFor(env, person.id);
    const b = await linkFor(env, person.id);
    const first = await runningOn(a);
    await lapse(first.jobId);
    expect(await runs.onLeaseExpired(first.jobId)).toBe("requeued");
    expect((await claim(b)).job?.id).toBe(first.jobId);
    await runs.startJob(b, first.jobId);
    await lapse(first.jobId);
    // Both of the person's Links went silent holding it: nobody is left to take it.
    expect(await runs.onLeaseExpired(first.jobId)).toBe("expired");
    const expired = await env.db.runJob.findUniqueOrThrow({ where: { id: first.jobId } });
    expect(expired.lapsedLinkIds.sort()).toEqual([a.linkId, b.linkId].sort());
    expect(await ledgerSum(env, first.jobId)).toBe(0n);
    // The last Link that held it may still report: recorded as late, not charged.
    await expect(report(b, first.jobId, ok({ late: true }))).resolves.toMatchObject({ late: true });
    expect(await ledgerSum(env, first.jobId)).toBe(0n);
    expect(await settlements(first.jobId)).toBe(1);

    const c = await linkFor(env, person.id);
    const late = await runningOn(c);
    await env.db.runJob.update({ where: { id: late.jobId }, data: { expiresAt: new Date(Date.now() - 1) } });
    await lapse(late.jobId);
    expect(await runs.onLeaseExpired(late.jobId)).toBe("expired");
    const d = await linkFor(env, person.id);
    const worn = await runningOn(d);
    await env.db.runJob.update({ where: { id: worn.jobId }, data: { attempts: 3 } });
    await lapse(worn.jobId);
    expect(await runs.onLeaseExpired(worn.jobId)).toBe("expired");
    for (const id of [late.jobId, worn.jobId]) expect(await ledgerSum(env, id)).toBe(0n);
    await retire(a, b, c, d);
  });

  it("a lease expiry racing the dead Link's result: one wins, and the money agrees", async () => {
    for (let round = 0; round < 8; round++) {
      const dead = await linkFor(env, person.id);
      const other = await linkFor(env, person.id);
      const { jobId } = await runningOn(dead);
      await lapse(jobId);
      const [expiry, result] = await Promise.allSettled([
        runs.onLeaseExpired(jobId),
        report(dead, jobId, ok({ raced: true })),
      ]);
      const job = await env.db.runJob.findUniqueOrThrow({ where: { id: jobId } });
      if (result.status === "fulfilled" && result.value.recorded) {
        expect(expiry).toMatchObject({ status: "fulfilled", value: "nothing" });
        expect(job.state).toBe("succeeded");
        expect(await settlements(jobId)).toBe(1);
      } else {
        expect(expiry).toMatchObject({ status: "fulfilled", value: "requeued" });
        expect(result).toMatchObject({ status: "rejected", reason: { code: "run.job.not_found" } });
        expect(job.state).toBe("queued");
        expect(await settlements(jobId)).toBe(0);
        await (await import("../../lib/runs/lifecycle")).cancelJob(jobId, "run.job.cancelled", "end of round");
      }
      await retire(dead, other);
    }
  });

  it("leases that end in the same second share one timer, whose run places every lapsed job again", async () => {
    const dead = await linkFor(env, person.id, { name: "dead-3" });
    const other = await linkFor(env, person.id, { name: "other-3" });
    const jobs = [await runningOn(dead), await runningOn(dead), await runningOn(dead)];
    // The running leases' seconds: one timer each, however many leases end in it.
    const leases = await env.db.runJob.findMany({ where: { id: { in: jobs.map((j) => j.jobId) } } });
    const seconds = new Set(leases.map((j) => Math.ceil(j.leaseExpiresAt!.getTime() / 1000)));
    const timersOf = async () =>
      (await runs.dispatchQueue().getDelayed()).filter(
        (j) => j.name === "dispatch.leases_due" && seconds.has((j.data as { second: number }).second),
      );
    const deadline = Date.now() + 5_000; // the timers follow the answers
    while ((await timersOf()).length < seconds.size && Date.now() < deadline) await new Promise((r) => setTimeout(r, 25));
    const due = await timersOf();
    expect(due.map((j) => (j.data as { second: number }).second).sort()).toEqual([...seconds].sort());
    for (const { jobId } of jobs) await lapse(jobId);
    expect(await runs.expireDueLeases()).toBe(3);
    const moved = await env.db.runJob.findMany({ where: { id: { in: jobs.map((j) => j.jobId) } } });
    expect(moved.map((j) => [j.state, j.lapsedLinkIds])).toEqual(jobs.map(() => ["queued", [dead.linkId]]));
    expect((await claim(other)).job).toBeTruthy();
    await retire(dead, other);
  });
});
