// The lifecycle under races, against the real PostgreSQL: two transitions fired at the same job
// or step at once, many times over. Exactly one wins each race, and the money agrees with it.
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { setupIntegration, type IntegrationEnv } from "../helpers/integration";
import { claim, ledgerSum, linkFor, ok, pendingStep, report, type TestLink } from "../helpers/runs";

let env: IntegrationEnv;
let runs: typeof import("../../lib/runs");
let lifecycle: typeof import("../../lib/runs/lifecycle");
let steps: typeof import("../../lib/steps");
let person: { id: string };
let versionId: string;
let projectId: string;
let link: TestLink;

const ROUNDS = 15;

async function runningJobs(n: number) {
  const ids: string[] = [];
  for (let i = 0; i < n; i++) {
    const s = await pendingStep(env, { userId: person.id, projectId, versionId });
    expect((await runs.submitStepJob(s.id, false)).kind).toBe("queued");
    const job = (await claim(link)).job!;
    await runs.startJob(link, job.id);
    ids.push(job.id);
  }
  return ids;
}

const settled = (jobId: string) => env.db.ledgerEntry.count({ where: { jobId, kind: "refund" } });

beforeAll(async () => {
  env = await setupIntegration("lifecycle");
  runs = await import("../../lib/runs");
  lifecycle = await import("../../lib/runs/lifecycle");
  steps = await import("../../lib/steps");
  const { createUser, getDefaultProject } = await import("../../lib/auth/users");
  const { publishSkill, scanVersion } = await import("../../lib/registry");
  const { loadBundle } = await import("../../lib/contracts");
  const { installSkill } = await import("../../lib/installs");
  const { recordTopUp } = await import("../../lib/billing/ledger");
  person = await createUser({ email: "racer@example.test", name: "Racer", password: null });
  projectId = (await getDefaultProject(person.id))!.id;
  const bundle = await loadBundle(path.resolve(import.meta.dirname, "../../scripts/demo/skills/text-tools"));
  if (!bundle.ok) throw new Error("bundle");
  versionId = (await publishSkill({ ownerId: person.id, document: bundle.document, scan: "none" })).versionId;
  await scanVersion(versionId);
  await installSkill({ userId: person.id, slug: "text-tools", version: bundle.document.version });
  await recordTopUp({ userId: person.id, amountMicros: 10_000_000n, paymentId: "races", memo: "test" });
  link = await linkFor(env, person.id);
}, 120_000);

afterAll(async () => {
  await runs.dispatchQueue().close();
  await (await import("../../lib/registry")).scanQueue().close();
  await (await import("../../lib/events")).closeEvents();
  await env?.teardown();
});

describe("races: exactly one transition wins", () => {
  it("a result against a cancel", async () => {
    const ids = await runningJobs(ROUNDS);
    const outcomes = await Promise.all(
      ids.map(async (id) => {
        const [result, cancel] = await Promise.allSettled([
          report(link, id, ok({ raced: true }, 1200)),
          lifecycle.cancelJob(id, "run.job.cancelled", "raced"),
        ]);
        return { id, result, cancel };
      }),
    );
    const winners = { result: 0, cancel: 0 };
    for (const { id, result, cancel } of outcomes) {
      const recorded = result.status === "fulfilled" && result.value.recorded;
      const cancelled = cancel.status === "fulfilled" && cancel.value.applied;
      expect(recorded !== cancelled, id).toBe(true);
      const job = await env.db.runJob.findUniqueOrThrow({ where: { id } });
      const stepRow = await env.db.step.findUniqueOrThrow({ where: { id: job.stepId! } });
      if (recorded) {
        winners.result++;
        expect([job.state, stepRow.status]).toEqual(["succeeded", "succeeded"]);
        expect(await ledgerSum(env, id)).toBe(-200n);
      } else {
        winners.cancel++;
        // The result that lost is refused with the withdrawal's code, never recorded.
        expect(result).toMatchObject({ status: "rejected", reason: { code: "run.job.cancelled" } });
        expect([job.state, stepRow.status, job.resultStatus]).toEqual(["cancelled", "cancelled", null]);
        expect(await ledgerSum(env, id)).toBe(0n);
      }
      expect(await settled(id)).toBe(1);
    }
    expect(winners.result + winners.cancel).toBe(ROUNDS);
  });

  it("a lease expiry against a result", async () => {
    const ids = await runningJobs(ROUNDS);
    await env.db.runJob.updateMany({ where: { id: { in: ids } }, data: { leaseExpiresAt: new Date(Date.now() - 1) } });
    for (const id of ids) {
      const [expiry, result] = await Promise.all([runs.onLeaseExpired(id), report(link, id, ok({ raced: true }))]);
      const job = await env.db.runJob.findUniqueOrThrow({ where: { id } });
      if (expiry === "expired") {
        // The expiry won; the result is kept for the record as late and charges nothing.
        expect(result).toMatchObject({ state: "expired", late: true });
        expect(job.state).toBe("expired");
        expect(await ledgerSum(env, id)).toBe(0n);
      } else {
        expect(expiry).toBe("nothing");
        expect(result).toMatchObject({ recorded: true, state: "succeeded", late: false });
        expect(job.state).toBe("succeeded");
        expect(await ledgerSum(env, id)).toBe(-200n);
      }
      expect(await settled(id)).toBe(1);
    }
  });

  it("an approval against an expiry", async () => {
    const pending = await Promise.all(
      Array.from({ length: ROUNDS }, () => pendingStep(env, { userId: person.id, projectId, versionId, expiresInMs: 400 })),
    );
    await new Promise((r) => setTimeout(r, 380));
    const outcomes = await Promise.all(
      pending.map(async (s, i) => {
        const approve = steps.decideStep(person.id, s.id, "once");
        const expire = new Promise((r) => setTimeout(r, i % 5)).then(() => lifecycle.expireDueStep(new Date(Date.now() + 1_000)));
        return { id: s.id, approve: (await Promise.allSettled([approve, expire]))[0] };
      }),
    );
    for (const { id, approve } of outcomes) {
      const row = await env.db.step.findUniqueOrThrow({ where: { id }, include: { job: true } });
      if (approve.status === "fulfilled") {
        expect([row.status, row.job?.state]).toEqual(["queued", "queued"]);
      } else {
        expect(approve.reason).toMatchObject({ code: "step.not_pending" });
        expect(row.status).toBe("expired");
        expect(row.job).toBeNull();
      }
    }
    // However the race went, every step ended in exactly one of the two.
    expect(await env.db.step.count({ where: { id: { in: pending.map((p) => p.id) }, status: "pending_approval" } })).toBe(0);
  });

  it("two Links claiming at once never take the same job, and a double start or release is harmless", async () => {
    const other = await linkFor(env, person.id);
    const made = await Promise.all(Array.from({ length: 10 }, () => pendingStep(env, { userId: person.id, projectId, versionId })));
    for (const s of made) await runs.submitStepJob(s.id, false);
    const claims = await Promise.all(Array.from({ length: 12 }, (_, i) => claim(i % 2 ? link : other)));
    const ids = claims.map((c) => c.job?.id).filter(Boolean);
    expect(ids).toHaveLength(10);
    expect(new Set(ids).size).toBe(10);
    const mine = claims.find((c, i) => c.job && i % 2 === 1)!.job!.id;
    await Promise.all([runs.startJob(link, mine), runs.startJob(link, mine)]);
    expect((await env.db.runJob.findUniqueOrThrow({ where: { id: mine } })).state).toBe("running");
    await expect(runs.releaseJob(link, mine)).resolves.toEqual({ released: false });
    await env.db.link.update({ where: { id: other.linkId }, data: { revokedAt: new Date() } });
  });
});
