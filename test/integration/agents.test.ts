// Agents act only for their person: another person's agent token cannot see, approve or run
// anything of this person (404). HO7 allowance: an agent acting alone (on an "always allow" grant)
// must fit its daily allowance, else the step waits for the person; a person-approved step is
// limited by the balance, not the allowance.
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { setupIntegration, type IntegrationEnv } from "../helpers/integration";

const ROOT = path.resolve(import.meta.dirname, "../..");
let env: IntegrationEnv;
let steps: typeof import("../../lib/steps");
let agents: typeof import("../../lib/agents");
let alice: { id: string };
let bob: { id: string };
let version: string;
let versionId: string;

beforeAll(async () => {
  env = await setupIntegration("agents");
  steps = await import("../../lib/steps");
  agents = await import("../../lib/agents");
  const { createUser } = await import("../../lib/auth/users");
  const { loadBundle } = await import("../../lib/contracts");
  const { publishSkill, scanVersion } = await import("../../lib/registry");
  const { installSkill } = await import("../../lib/installs");
  const { recordTopUp } = await import("../../lib/billing/ledger");
  alice = await createUser({ email: "alice@example.test", name: "Alice", password: null });
  bob = await createUser({ email: "bob@example.test", name: "Bob", password: null });
  const bundle = await loadBundle(path.join(ROOT, "scripts/demo/skills/text-tools"));
  if (!bundle.ok) throw new Error("bundle");
  version = bundle.document.version;
  versionId = (await publishSkill({ ownerId: alice.id, document: bundle.document, scan: "none" })).versionId;
  await scanVersion(versionId);
  for (const who of [alice, bob]) {
    await installSkill({ userId: who.id, slug: "text-tools", version });
    await recordTopUp({ userId: who.id, amountMicros: 1_000_000n, paymentId: `agents-${who.id}`, memo: "test" });
  }
  // Both have an online Link with the runner on, so steps can be submitted.
  for (const who of [alice, bob]) {
    await env.db.link.create({
      data: {
        userId: who.id,
        name: "m",
        publicKey: `pk-${who.id}`.padEnd(43, "x").slice(0, 43),
        runnerEnabled: true,
        lastSeenAt: new Date(),
      },
    });
  }
}, 120_000);

afterAll(async () => {
  await (await import("../../lib/runs")).dispatchQueue().close();
  await (await import("../../lib/registry")).scanQueue().close();
  await (await import("../../lib/events")).closeEvents();
  await env?.teardown();
});

describe("another person's agent", () => {
  it("cannot see, approve or run anything of this person (404)", async () => {
    const aliceAgent = await agents.verifyAgentToken((await agents.createAgent(alice.id, { name: "a" })).token);
    const bobAgent = await agents.verifyAgentToken((await agents.createAgent(bob.id, { name: "b" })).token);
    const step = await steps.createSkillRunStep(aliceAgent, {
      skill: `text-tools@${version}`,
      tool: "slugify",
      input: { text: "A" },
    });
    await expect(steps.getStepForAgent(bobAgent, step.id)).rejects.toMatchObject({
      code: "step.not_found",
      status: 404,
    });
    await expect(steps.decideStep(bob.id, step.id, "once")).rejects.toMatchObject({
      code: "step.not_found",
      status: 404,
    });
    expect((await (await import("../../lib/steps/list")).listStepsPage(bob.id)).steps).toEqual([]);
    const { getRunForPerson } = await import("../../lib/runs");
    await steps.decideStep(alice.id, step.id, "once");
    const job = await env.db.runJob.findFirstOrThrow({ where: { stepId: step.id } });
    await expect(getRunForPerson(bob.id, job.id)).rejects.toMatchObject({ status: 404 });
    // Bob's agent calling with Alice's install in mind runs only against Bob's own install and project.
    const own = await steps.createSkillRunStep(bobAgent, {
      skill: `text-tools@${version}`,
      tool: "slugify",
      input: { text: "B" },
    });
    expect((await env.db.step.findUniqueOrThrow({ where: { id: own.id } })).userId).toBe(bob.id);
  });

  it("a revoked agent token is refused at once", async () => {
    const { agent, token } = await agents.createAgent(alice.id, { name: "short-lived" });
    await agents.verifyAgentToken(token);
    await expect(agents.revokeAgent(bob.id, agent.id)).rejects.toMatchObject({ status: 404 });
    await agents.revokeAgent(alice.id, agent.id);
    await expect(agents.verifyAgentToken(token)).rejects.toMatchObject({ code: "auth.token_revoked" });
  });

  it("tokens checked in the same moment (one statement) each get their own agent or refusal", async () => {
    const a = await agents.createAgent(alice.id, { name: "batch-a" });
    const b = await agents.createAgent(bob.id, { name: "batch-b" });
    const gone = await agents.createAgent(alice.id, { name: "batch-gone" });
    await agents.revokeAgent(alice.id, gone.agent.id);
    const unknown = `ova_${"x".repeat(43)}`;
    const answers = await Promise.allSettled(
      [a.token, b.token, gone.token, unknown, a.token].map((t) => agents.verifyAgentToken(t)),
    );
    expect(answers.map((r) => (r.status === "fulfilled" ? r.value.agentId : (r.reason as { code: string }).code))).toEqual([
      a.agent.id,
      b.agent.id,
      "auth.token_revoked",
      "auth.token_invalid",
      a.agent.id,
    ]);
    expect(answers[1]).toMatchObject({ value: { userId: bob.id } });
  });
});

describe("allowance (HO7)", () => {
  it("an agent alone at its allowance waits for the person; a person-approved step is limited by the balance only", async () => {
    const { agent, token } = await agents.createAgent(alice.id, { name: "frugal" });
    const principal = await agents.verifyAgentToken(token);
    // slugify's worst case is 10 s at the pool rate: 10 000 micro-units. Allow less than that.
    await agents.setAllowance(alice.id, agent.id, 5_000n);
    const { grantAlwaysAllow } = await import("../../lib/installs");
    await grantAlwaysAllow({ userId: alice.id, versionId, tool: "slugify" });
    const step = await steps.createSkillRunStep(principal, {
      skill: `text-tools@${version}`,
      tool: "slugify",
      input: { text: "alone" },
    });
    expect(step.status).toBe("pending_approval");
    expect(step.message).toMatch(/allowance/);
    expect(await env.db.runJob.count({ where: { stepId: step.id } })).toBe(0);
    // The person approves: the allowance does not apply, the balance does.
    const decided = await steps.decideStep(alice.id, step.id, "once");
    expect(decided.status).toBe("queued");
    // With enough allowance the same agent runs alone again.
    await agents.setAllowance(alice.id, agent.id, 1_000_000n);
    const alone = await steps.createSkillRunStep(principal, {
      skill: `text-tools@${version}`,
      tool: "slugify",
      input: { text: "again" },
    });
    expect(alone.status).toBe("queued");
    expect((await agents.listAgents(bob.id)).map((a) => a.name)).not.toContain("frugal");
  });

  it("20 solo calls at once at the edge of the allowance: exactly the ones that fit run, the rest ask the person", async () => {
    const { agentSpentToday } = await import("../../lib/billing/allowance");
    const { agent, token } = await agents.createAgent(alice.id, { name: "parallel" });
    const principal = await agents.verifyAgentToken(token);
    // slugify's worst case is 10 000 micro-units: room for exactly 5, and some to spare.
    await agents.setAllowance(alice.id, agent.id, 5n * 10_000n + 9_999n);
    const { grantAlwaysAllow } = await import("../../lib/installs");
    await grantAlwaysAllow({ userId: alice.id, versionId, tool: "slugify" });
    const calls = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        steps.createSkillRunStep(principal, { skill: `text-tools@${version}`, tool: "slugify", input: { text: `n${i}` } }),
      ),
    );
    const ran = calls.filter((c) => c.status === "queued");
    const asked = calls.filter((c) => c.status === "pending_approval");
    expect(ran).toHaveLength(5);
    expect(asked).toHaveLength(15);
    for (const c of asked) expect(c.message).toMatch(/daily allowance left, so it needs your approval/);
    expect(await agentSpentToday(agent.id)).toBe(50_000n);
    expect(await env.db.runJob.count({ where: { stepId: { in: ran.map((c) => c.id) }, agentAlone: true } })).toBe(5);

    // A run the person approves is theirs: it does not count against the agent's allowance.
    await steps.decideStep(alice.id, asked[0]!.id, "once");
    expect(await agentSpentToday(agent.id)).toBe(50_000n);
    const approvedJob = await env.db.runJob.findFirstOrThrow({ where: { stepId: asked[0]!.id } });
    expect(approvedJob.agentAlone).toBe(false);

    // A solo run that ends gives back what it did not use: cancelled here, so all of it.
    const { withdraw } = await import("../../lib/runs");
    await withdraw({ userId: alice.id, versionIds: [versionId] }, "disabled");
    expect(await agentSpentToday(agent.id)).toBe(0n);
  });
});

describe("call contexts read in the same moment (one statement)", () => {
  it("are each the caller's own: their install, their tool, or nothing", async () => {
    const { readCallContext } = await import("../../lib/steps/call-context");
    const base = { keyReuseAfterMs: 60_000, idempotencyKey: null, now: new Date(), agentId: "unused", version };
    const projectOf = async (userId: string) =>
      (await env.db.install.findFirstOrThrow({ where: { userId } })).projectId;
    const [aliceProject, bobProject] = [await projectOf(alice.id), await projectOf(bob.id)];
    const [own, other, none, unknownTool] = await Promise.all([
      readCallContext({ ...base, userId: alice.id, projectId: aliceProject, slug: "text-tools", tool: "word_count" }),
      readCallContext({ ...base, userId: bob.id, projectId: bobProject, slug: "text-tools", tool: "slugify" }),
      readCallContext({ ...base, userId: alice.id, projectId: aliceProject, slug: "no-such-skill", tool: "x" }),
      readCallContext({ ...base, userId: alice.id, projectId: aliceProject, slug: "text-tools", tool: "nope" }),
    ]);
    expect(own).toMatchObject({ versionId, tool: { name: "word_count" }, runnable: true });
    expect(other).toMatchObject({ versionId, tool: { name: "slugify" }, runnable: true });
    expect(none).toBeNull();
    expect(unknownTool).toMatchObject({ versionId, tool: null });
  });
});
