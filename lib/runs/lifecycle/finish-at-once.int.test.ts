// A Link's result recorded by one statement, against the real PostgreSQL: it writes exactly what
// the transition's general way (finishJob) writes, job, step, settlement, allowance and the Link's
// count alike; a refusal costs nothing; and a job that is no longer running on that Link is left to
// the general way, with nothing written.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { LinkRunResult } from "../../protocol";
import { setupIntegration, type IntegrationEnv } from "../../../test/helpers/integration";
import { closeRunPath, linkFor, ok, signed, textToolsPerson, type TestLink } from "../../../test/helpers/runs";

let env: IntegrationEnv;
let link: TestLink;
let agentId: string;
let token: string;
let skill: string;

beforeAll(async () => {
  env = await setupIntegration("finish-at-once");
  const { person, versionId } = await textToolsPerson("finish-at-once@example.test");
  const { grantAlwaysAllow } = await import("../../installs");
  await grantAlwaysAllow({ userId: person.id, versionId, tool: "slugify" });
  const agents = await import("../../agents");
  const made = await agents.createAgent(person.id, { name: "finisher" });
  await agents.setAllowance(person.id, made.agent.id, 1_000_000_000n);
  agentId = made.agent.id;
  token = made.token;
  const version = await env.db.skillVersion.findUniqueOrThrow({ where: { id: versionId } });
  skill = `text-tools@${version.version}`;
  link = await linkFor(env, person.id);
}, 120_000);

afterAll(async () => {
  await closeRunPath();
  await env?.teardown();
});

/** `n` calls of the agent, each claimed and started on the Link (one poll, inline). */
async function runningJobs(n: number): Promise<string[]> {
  const { createSkillRunStep } = await import("../../steps");
  const { verifyAgentToken } = await import("../../agents");
  const { pollForJob } = await import("../index");
  const agent = await verifyAgentToken(token);
  for (let i = 0; i < n; i++) {
    const answer = await createSkillRunStep(agent, { skill, tool: "slugify", input: { text: `call ${i}` } });
    expect(answer.status).toBe("queued");
  }
  const polled = await pollForJob(link, {
    runner: "on",
    runner_epoch: 0,
    pool: false,
    wait_ms: 0,
    inline: true,
    max: n,
  });
  expect(polled.jobs?.every((j) => j.started)).toBe(true);
  return polled.jobs!.map((j) => j.job.id);
}

async function finishFast(jobId: string, result: LinkRunResult) {
  const { resultFacts, verifiedAttestation } = await import("../attestation");
  const { finishAtOnce } = await import("./finish-at-once");
  const body = await signed(link, jobId, result);
  const facts = await resultFacts(link.linkId, jobId);
  return finishAtOnce(link.linkId, jobId, facts!, body, verifiedAttestation(facts!, link.linkId, jobId, body));
}

async function finishGeneral(jobId: string, result: LinkRunResult) {
  const { resultFacts, verifiedAttestation } = await import("../attestation");
  const { finishJob } = await import("./jobs");
  const body = await signed(link, jobId, result);
  const facts = await resultFacts(link.linkId, jobId);
  return finishJob(link.linkId, jobId, body, verifiedAttestation(facts!, link.linkId, jobId, body));
}

/** What a recorded result left in the rows, without ids and clocks. */
async function recorded(jobId: string) {
  const job = await env.db.runJob.findUniqueOrThrow({ where: { id: jobId }, include: { step: true } });
  const settlement = await env.db.ledgerEntry.findUniqueOrThrow({ where: { idempotencyKey: `run:${jobId}:2` } });
  return {
    job: {
      state: job.state,
      resultStatus: job.resultStatus,
      output: job.output,
      stderr: job.stderr,
      exitCode: job.exitCode,
      wallMsUsed: job.wallMsUsed,
      maxRssBytes: job.maxRssBytes,
      costMicros: job.costMicros,
      signed: (job.attestation as { key_id?: string } | null)?.key_id?.length ?? 0,
      finished: job.finishedAt !== null,
      lease: job.leaseExpiresAt,
    },
    step: {
      status: job.step!.status,
      result: job.step!.result,
      wallMs: job.step!.wallMs,
      exitStatus: job.step!.exitStatus,
      message: job.step!.message,
    },
    settlement: [settlement.kind, settlement.amountMicros, settlement.memo, settlement.agentId, settlement.skillSlug],
  };
}

const allowanceSpent = async () => (await env.db.agentAllowance.findUniqueOrThrow({ where: { agentId } })).spentMicros;
const jobsRun = async () => (await env.db.link.findUniqueOrThrow({ where: { id: link.linkId } })).jobsRun;

describe("a result recorded by one statement", () => {
  it("writes what the general way writes: job, step, settlement, allowance and the Link's count", async () => {
    const { ledgerDifferences } = await import("../../billing/ledger-check");
    const { chargeFor } = await import("../../billing/rates");
    const [fast, general] = await runningJobs(2);
    const spentBefore = await allowanceSpent();
    const countBefore = await jobsRun();
    const result = ok({ slug: "hello-world" }, 1500);

    expect(await finishFast(fast!, result)).toBe(true);
    expect((await finishGeneral(general!, result)).applied).toBe(true);

    const a = await recorded(fast!);
    expect(a).toEqual(await recorded(general!));
    expect(a.job.state).toBe("succeeded");
    expect(a.job.costMicros).toBe(chargeFor(1500, "own"));
    expect(a.job.signed).toBeGreaterThan(0);
    expect(a.job.lease).toBeNull();
    expect(a.step).toMatchObject({
      status: "succeeded",
      result: { type: "tool_result", untrusted: true, data: { slug: "hello-world" } },
      exitStatus: "ok",
    });
    expect(a.settlement[2]).toBe("Run settled: 0.0002 for 2 s");
    // Each run's unused hold went back to the allowance: what is left spent is what they cost.
    const held = -(await env.db.ledgerEntry.findUniqueOrThrow({ where: { idempotencyKey: `run:${fast}:1` } }))
      .amountMicros;
    expect(spentBefore - (await allowanceSpent())).toBe(2n * (held - chargeFor(1500, "own")));
    expect((await jobsRun()) - countBefore).toBe(2);
    expect(await ledgerDifferences()).toEqual([]);
  });

  it("a failure is charged as it ran; a refusal ran nothing and costs nothing", async () => {
    const [failed, refused] = await runningJobs(2);
    const error: LinkRunResult = {
      status: "error",
      output: null,
      stderr: "boom",
      exit: 1,
      wall_ms: 2500,
      max_rss_bytes: 9,
    };
    const refusal: LinkRunResult = { ...error, status: "refused", exit: null, wall_ms: 3, code: "run.job.unsupported" };
    expect(await finishFast(failed!, error)).toBe(true);
    expect(await finishFast(refused!, refusal)).toBe(true);

    const f = await recorded(failed!);
    expect([f.job.state, f.job.output, f.job.costMicros, f.step.status, f.step.result]).toEqual([
      "failed",
      null,
      300n,
      "failed",
      null,
    ]);
    expect(f.step.message).toBe("The tool failed (it threw or exited with an error).");
    const r = await recorded(refused!);
    expect([r.job.state, r.job.costMicros, r.settlement[2]]).toEqual(["failed", 0n, "Run did not run: hold returned"]);
    expect(r.step.message).toBe("The Link does not run this kind of job, so it refused it.");
    const { ledgerSum } = await import("../../../test/helpers/runs");
    expect(await ledgerSum(env, refused!)).toBe(0n);
  });

  it("writes nothing for a job no longer running on that Link; the general way answers it", async () => {
    const { cancelJob } = await import("./jobs");
    const { recordResult } = await import("../index");
    const [cancelled, done] = await runningJobs(2);
    await cancelJob(cancelled!, "run.job.cancelled", "Cancelled by the test.");
    const entries = await env.db.ledgerEntry.count({ where: { jobId: cancelled } });

    expect(await finishFast(cancelled!, ok({ slug: "x" }))).toBe(false);
    expect(await env.db.ledgerEntry.count({ where: { jobId: cancelled } })).toBe(entries);
    expect((await env.db.runJob.findUniqueOrThrow({ where: { id: cancelled } })).state).toBe("cancelled");
    await expect(
      recordResult(link, cancelled!, await signed(link, cancelled!, ok({ slug: "x" }))),
    ).rejects.toMatchObject({
      code: "run.job.cancelled",
    });

    // A repeat of a recorded result (the Link's retry) records nothing twice.
    const body = await signed(link, done!, ok({ slug: "y" }));
    expect(await recordResult(link, done!, body)).toEqual({ recorded: true, state: "succeeded", late: false });
    expect(await recordResult(link, done!, body)).toEqual({ recorded: false, state: "succeeded", late: false });
    expect(await env.db.ledgerEntry.count({ where: { jobId: done, kind: "refund" } })).toBe(1);
  });
});
