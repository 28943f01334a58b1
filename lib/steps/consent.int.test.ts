// Cost before consent against the real PostgreSQL: a waiting step's worst case from its tool's
// wall_ms cap, whether the balance covers it, someone else's step left out; and the step still
// waits while the person tops up, then approving it queues the run.
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { setupIntegration, type IntegrationEnv } from "../../test/helpers/integration";
import { linkFor, pendingStep } from "../../test/helpers/runs";

let env: IntegrationEnv;
let consent: typeof import("./consent");
let me: string;
let other: string;
let projectId: string;
let otherProject: string;
let versionId: string;
let wallMs: number;

beforeAll(async () => {
  env = await setupIntegration("consent");
  consent = await import("./consent");
  const { createUser, getDefaultProject } = await import("../auth/users");
  const { publishSkill, scanVersion } = await import("../registry");
  const { installSkill } = await import("../installs");
  const { loadBundle } = await import("../contracts");
  me = (await createUser({ email: "consent-me@example.test", name: "Me", password: null })).id;
  other = (await createUser({ email: "consent-other@example.test", name: "Other", password: null })).id;
  projectId = (await getDefaultProject(me))!.id;
  otherProject = (await getDefaultProject(other))!.id;
  const bundle = await loadBundle(path.resolve(import.meta.dirname, "../../scripts/demo/skills/text-tools"));
  if (!bundle.ok) throw new Error("bundle");
  const tools = (bundle.document as unknown as { tools: { name: string; limits: { wall_ms: number } }[] }).tools;
  wallMs = tools.find((t) => t.name === "slugify")!.limits.wall_ms;
  versionId = (await publishSkill({ ownerId: me, document: bundle.document, scan: "none" })).versionId;
  await scanVersion(versionId);
  await installSkill({ userId: me, slug: "text-tools", version: "2.0.1" });
  await linkFor(env, me);
}, 120_000);

afterAll(async () => {
  await (await import("../runs")).dispatchQueue().close();
  await (await import("../registry")).scanQueue().close();
  await (await import("../events")).closeEvents();
  await env?.teardown();
});

describe("consentFacts", () => {
  it("says what a call can cost and that a zero balance cannot cover it; the step still waits through a top-up, then runs", async () => {
    const { callCost } = await import("../billing/call-cost");
    const expected = callCost(wallMs);
    const step = await pendingStep(env, { userId: me, projectId, versionId });
    const before = await consent.consentFacts(me, [step.id]);
    expect(before.balance_micros).toBe("0");
    expect(before.costs[step.id]).toEqual({
      own_micros: expected.own_micros.toString(),
      pool_micros: expected.pool_micros.toString(),
      hold_micros: expected.hold_micros.toString(),
      covered: false,
    });

    const { recordTopUp } = await import("../billing/ledger");
    await recordTopUp({ userId: me, amountMicros: expected.hold_micros, paymentId: "consent-1", memo: "test" });
    const after = await consent.consentFacts(me, [step.id]);
    expect(after.balance_micros).toBe(expected.hold_micros.toString());
    expect(after.costs[step.id]?.covered).toBe(true);
    expect((await env.db.step.findUniqueOrThrow({ where: { id: step.id } })).status).toBe("pending_approval");

    const { decideStep } = await import("./index");
    const decided = await decideStep(me, step.id, "once");
    expect(decided.status).toBe("queued");
    expect(decided.job?.state).toBe("queued");

    // "Run again": a new step with the same tool and input, waiting for approval; not for anyone else.
    const { runAgain } = await import("./run-again");
    const again = await runAgain(me, decided.job!.id);
    expect(again.status).toBe("pending_approval");
    const copy = await env.db.step.findUniqueOrThrow({ where: { id: again.step_id } });
    expect([copy.tool, copy.input, copy.userId, copy.target]).toEqual([
      step.tool,
      step.input,
      me,
      "text-tools@2.0.1 slugify",
    ]);
    await expect(runAgain(other, decided.job!.id)).rejects.toMatchObject({ code: "run.job.not_found" });
  });

  it("leaves someone else's step out", async () => {
    const theirs = await pendingStep(env, { userId: other, projectId: otherProject, versionId });
    const facts = await consent.consentFacts(me, [theirs.id]);
    expect(facts.costs).toEqual({});
    expect((await consent.consentFacts(other, [theirs.id])).costs[theirs.id]?.covered).toBe(false);
  });
});
