// Calls accepted at once under an "always allow" grant, against the real PostgreSQL: many agents of
// one person calling together share statements, and still each gets exactly one step, one job, one
// call object and one hold, the balance never goes below zero (the calls it does not cover end
// insufficient_balance), and one key makes one step however many times it arrives at once.
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { setupIntegration, type IntegrationEnv } from "../../test/helpers/integration";
import { closeRunPath, linkFor } from "../../test/helpers/runs";

let env: IntegrationEnv;
let steps: typeof import("./index");
let agents: typeof import("../agents");
let person: string;
let version: string;
let worstCase: bigint;

beforeAll(async () => {
  env = await setupIntegration("accept");
  steps = await import("./index");
  agents = await import("../agents");
  const { createUser } = await import("../auth/users");
  const { publishSkill, scanVersion } = await import("../registry");
  const { installSkill, grantAlwaysAllow } = await import("../installs");
  const { loadBundle } = await import("../contracts");
  const { worstCaseCost } = await import("../billing/rates");
  person = (await createUser({ email: "accept@example.test", name: "Accept", password: null })).id;
  const bundle = await loadBundle(path.resolve(import.meta.dirname, "../../scripts/demo/skills/text-tools"));
  if (!bundle.ok) throw new Error("bundle");
  version = bundle.document.version;
  const tools = (bundle.document as unknown as { tools: { name: string; limits: { wall_ms: number } }[] }).tools;
  worstCase = worstCaseCost(tools.find((t) => t.name === "slugify")!.limits.wall_ms);
  const versionId = (await publishSkill({ ownerId: person, document: bundle.document, scan: "none" })).versionId;
  await scanVersion(versionId);
  await installSkill({ userId: person, slug: "text-tools", version });
  await grantAlwaysAllow({ userId: person, versionId, tool: "slugify" });
  await linkFor(env, person);
}, 120_000);

afterAll(async () => {
  await closeRunPath();
  await env?.teardown();
});

async function principals(n: number, prefix: string) {
  const made = [];
  for (let i = 0; i < n; i++) {
    const { agent, token } = await agents.createAgent(person, { name: `${prefix}-${i}` });
    await agents.setAllowance(person, agent.id, 1_000_000_000n);
    made.push(await agents.verifyAgentToken(token));
  }
  return made;
}

const call = (text: string) => ({ skill: `text-tools@${version}`, tool: "slugify", input: { text } });

describe("calls accepted at once", () => {
  it("30 agents at once against 12 runs' worth: 12 queued with one job, call object and hold each, 18 refused", async () => {
    const { recordTopUp } = await import("../billing/ledger");
    const { ledgerDifferences } = await import("../billing/ledger-check");
    const { getMedia, mediaBackend } = await import("../media");
    await recordTopUp({ userId: person, amountMicros: worstCase * 12n + 3n, paymentId: "accept-1", memo: "t" });
    const callers = await principals(30, "burst");
    const mediaRows = await env.db.mediaObject.count();
    const answers = await Promise.all(callers.map((p, i) => steps.createSkillRunStep(p, call(`n${i}`))));

    expect(answers.filter((a) => a.status === "queued")).toHaveLength(12);
    expect(answers.filter((a) => a.status === "insufficient_balance")).toHaveLength(18);
    const user = await env.db.user.findUniqueOrThrow({ where: { id: person } });
    expect([user.balanceMicros, user.heldMicros]).toEqual([3n, worstCase * 12n]);
    expect(await ledgerDifferences()).toEqual([]);

    for (const answer of answers.filter((a) => a.status === "queued")) {
      const stored = await env.db.step.findUniqueOrThrow({ where: { id: answer.id }, include: { job: true } });
      expect([stored.status, stored.approval, stored.job?.id]).toEqual(["queued", "grant", answer.run_id]);
      expect(stored.createdAt.toISOString()).toBe(new Date(answer.created_at).toISOString());
      const holds = await env.db.ledgerEntry.findMany({ where: { jobId: answer.run_id } });
      expect(holds.map((h) => [h.kind, h.amountMicros, h.idempotencyKey])).toEqual([
        ["charge", -worstCase, `run:${answer.run_id}:1`],
      ]);
      const inputs = stored.job!.inputs as { name: string; media_id: string }[];
      const callObject = inputs.find((i) => i.name === "job.json")!;
      const { object, bytes } = await getMedia(callObject.media_id);
      expect(JSON.parse(bytes.toString("utf8")).input).toEqual(stored.input);
      // The call object lives in its row: the store holds no file for it.
      expect(object.inlineBytes?.length).toBe(object.sizeBytes);
      expect(await mediaBackend().has(object.storageKey)).toBe(false);
    }
    // The 18 refused calls stored no call object.
    expect(await env.db.mediaObject.count()).toBe(mediaRows + 12);
    // Bytes changed in the row are refused, as a changed file is.
    const tampered = answers.find((a) => a.status === "queued")!.id;
    const job = await env.db.runJob.findFirstOrThrow({ where: { stepId: tampered } });
    const mediaId = (job.inputs as { name: string; media_id: string }[]).find((i) => i.name === "job.json")!.media_id;
    await env.db.$executeRaw`UPDATE "MediaObject" SET "inlineBytes" = overlay("inlineBytes" placing '\x58'::bytea from 1) WHERE id = ${mediaId}`;
    await expect(getMedia(mediaId)).rejects.toMatchObject({ code: "media.integrity_mismatch" });
    // Their TTLs share the timer of the second they run out in: one or two timers, not twelve.
    const { dispatchQueue } = await import("../runs/timers");
    await vi.waitFor(async () => {
      const due = (await dispatchQueue().getDelayed()).filter((j) => j.name === "dispatch.jobs_due");
      expect(due.length).toBeGreaterThanOrEqual(1);
      expect(due.length).toBeLessThanOrEqual(2);
    });
    // Nothing is owed from the outbox for any of them: each was decided in its own answer.
    const ids = answers.map((a) => a.id);
    expect(await env.db.stepOutbox.count({ where: { stepId: { in: ids } } })).toBe(0);
    expect(await env.db.runJob.count({ where: { stepId: { in: ids } } })).toBe(12);
  });

  it("one key sent five times at once by one agent makes one step and one job", async () => {
    const { recordTopUp } = await import("../billing/ledger");
    await recordTopUp({ userId: person, amountMicros: worstCase * 10n, paymentId: "accept-2", memo: "t" });
    const [caller] = await principals(1, "keyed");
    const answers = await Promise.all(
      Array.from({ length: 5 }, () => steps.createSkillRunStep(caller!, call("same"), { idempotencyKey: "k-1" })),
    );
    expect(new Set(answers.map((a) => a.id)).size).toBe(1);
    expect(answers.map((a) => a.status)).toEqual(Array(5).fill("queued"));
    expect(await env.db.runJob.count({ where: { stepId: answers[0]!.id } })).toBe(1);
    expect(await env.db.step.count({ where: { agentId: caller!.agentId } })).toBe(1);
  });
});
