// Runs you can find, against the real PostgreSQL: the agent's answer names its run, where it ran
// and what it cost once settled; GET /api/v1/runs and GET /api/v1/steps page by cursor and filter
// by skill, tool, agent, status and day with the runs page's query (lib/runs/list.ts); a person
// never sees another's runs or steps; bad parameters are 422 with stable codes.
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { setupIntegration, type IntegrationEnv } from "../helpers/integration";
import { claim, linkFor, ok, report, type TestLink } from "../helpers/runs";
import { sessionToken } from "../helpers/session-cookie";

const SECRET = "integration-secret-".padEnd(40, "x");
const DEMO = path.resolve(import.meta.dirname, "../../scripts/demo/skills");

let env: IntegrationEnv;
let steps: typeof import("../../lib/steps");
let runsRoute: typeof import("../../app/api/v1/runs/route");
let runRoute: typeof import("../../app/api/v1/runs/[id]/route");
let stepsRoute: typeof import("../../app/api/v1/steps/route");
let cookies: Record<"alice" | "bob", string>;
let alice: { id: string };
let bob: { id: string };
let aliceLink: TestLink;
let agentIds: Record<"alpha" | "beta" | "bobs", string>;
let principals: Record<
  "alpha" | "beta" | "bobs",
  Awaited<ReturnType<typeof import("../../lib/agents").verifyAgentToken>>
>;
/** Alice's runs as made, oldest first. */
const made: { stepId: string; jobId: string; tool: string; agent: "alpha" | "beta" }[] = [];
let bobsJob: string;
let pendingStepId: string;

type Json = Record<string, unknown>;
async function get(
  route: { GET: (r: Request, c: { params: Promise<Record<string, string>> }) => Promise<Response> },
  url: string,
  who: "alice" | "bob",
  params: Record<string, string> = {},
): Promise<{ status: number; body: Json }> {
  const res = await route.GET(new Request(`http://localhost${url}`, { headers: { cookie: cookies[who] } }), {
    params: Promise.resolve(params),
  });
  return { status: res.status, body: (await res.json()) as Json };
}

async function call(agent: "alpha" | "beta" | "bobs", tool: "slugify" | "word_count", approve = true) {
  const step = await steps.createSkillRunStep(principals[agent], {
    skill: "text-tools@2.0.1",
    tool,
    input: { text: `hello ${made.length}` },
  });
  if (!approve) return { stepId: step.id, jobId: "" };
  const owner = agent === "bobs" ? bob.id : alice.id;
  await steps.decideStep(owner, step.id, "once");
  const job = await env.db.runJob.findUniqueOrThrow({ where: { stepId: step.id } });
  return { stepId: step.id, jobId: job.id };
}

beforeAll(async () => {
  env = await setupIntegration("runs-api");
  steps = await import("../../lib/steps");
  runsRoute = await import("../../app/api/v1/runs/route");
  runRoute = await import("../../app/api/v1/runs/[id]/route");
  stepsRoute = await import("../../app/api/v1/steps/route");
  const { createUser, sessionCookieName } = await import("../../lib/auth");
  const agents = await import("../../lib/agents");
  const { publishSkill, scanVersion } = await import("../../lib/registry");
  const { loadBundle } = await import("../../lib/contracts");
  const { installSkill } = await import("../../lib/installs");
  const { recordTopUp } = await import("../../lib/billing/ledger");
  alice = await createUser({ email: "alice-runs@example.test", name: "Alice", password: null });
  bob = await createUser({ email: "bob-runs@example.test", name: "Bob", password: null });
  cookies = {
    alice: `${sessionCookieName()}=${await sessionToken(alice.id, SECRET)}`,
    bob: `${sessionCookieName()}=${await sessionToken(bob.id, SECRET)}`,
  };
  const bundle = await loadBundle(path.join(DEMO, "text-tools"));
  if (!bundle.ok) throw new Error("bundle");
  const versionId = (await publishSkill({ ownerId: alice.id, document: bundle.document, scan: "none" })).versionId;
  expect((await scanVersion(versionId)).status).toBe("passed");
  for (const who of [alice, bob]) {
    await installSkill({ userId: who.id, slug: "text-tools", version: "2.0.1" });
    await recordTopUp({ userId: who.id, amountMicros: 10_000_000n, paymentId: `runs-${who.id}`, memo: "test" });
  }
  aliceLink = await linkFor(env, alice.id, { name: "alices-laptop" });
  await linkFor(env, bob.id);
  const make = async (userId: string, name: string) => {
    const created = await agents.createAgent(userId, { name });
    return { id: created.agent.id, principal: await agents.verifyAgentToken(created.token) };
  };
  const [alpha, beta, bobs] = [await make(alice.id, "alpha"), await make(alice.id, "beta"), await make(bob.id, "bobs")];
  agentIds = { alpha: alpha.id, beta: beta.id, bobs: bobs.id };
  principals = { alpha: alpha.principal, beta: beta.principal, bobs: bobs.principal };

  const plan: ["alpha" | "beta", "slugify" | "word_count"][] = [
    ["alpha", "slugify"],
    ["beta", "word_count"],
    ["alpha", "word_count"],
    ["beta", "slugify"],
    ["alpha", "slugify"],
  ];
  for (const [agent, tool] of plan) made.push({ ...(await call(agent, tool)), tool, agent });
  bobsJob = (await call("bobs", "slugify")).jobId;
  pendingStepId = (await call("alpha", "word_count", false)).stepId;
  // The first two of Alice's runs finish and are settled.
  for (const run of made.slice(0, 2)) {
    expect((await claim(aliceLink)).job?.id).toBe(run.jobId);
    const { startJob } = await import("../../lib/runs");
    await startJob(aliceLink, run.jobId);
    await report(aliceLink, run.jobId, ok({ fine: true }, 1500));
  }
}, 180_000);

afterAll(async () => {
  await (await import("../../lib/runs")).dispatchQueue().close();
  await (await import("../../lib/registry")).scanQueue().close();
  await (await import("../../lib/events")).closeEvents();
  await env?.teardown();
});

describe("the agent's answer", () => {
  it("carries run_id, where it ran and, once settled, the cost", async () => {
    const settled = await steps.getStepForAgent(principals.alpha, made[0]!.stepId);
    expect(settled).toMatchObject({
      status: "succeeded",
      run_id: made[0]!.jobId,
      ran_on: "your Link alices-laptop",
      cost_micros: expect.stringMatching(/^[1-9]\d*$/),
      cost: expect.any(String),
    });
    const queued = await steps.getStepForAgent(principals.alpha, made[2]!.stepId);
    expect(queued).toMatchObject({ status: "queued", run_id: made[2]!.jobId });
    expect(queued).not.toHaveProperty("cost_micros");
    const waiting = await steps.getStepForAgent(principals.alpha, pendingStepId);
    expect(waiting).not.toHaveProperty("run_id");
  });
});

describe("GET /api/v1/runs", () => {
  const ids = (body: Json) => (body.runs as { id: string }[]).map((r) => r.id);

  it("pages every run of the person newest first by cursor, never another person's", async () => {
    const seen: string[] = [];
    let cursor: string | null = null;
    for (let i = 0; i < 10; i++) {
      const page = await get(runsRoute, `/api/v1/runs?limit=2${cursor ? `&cursor=${cursor}` : ""}`, "alice");
      expect(page.status).toBe(200);
      expect((page.body.runs as unknown[]).length).toBeLessThanOrEqual(2);
      seen.push(...ids(page.body));
      cursor = page.body.next_cursor as string | null;
      if (!cursor) break;
    }
    expect(seen).toEqual(made.map((m) => m.jobId).reverse());
    expect(seen).not.toContain(bobsJob);
    const first = (await get(runsRoute, "/api/v1/runs", "alice")).body.runs as Json[];
    expect(first.at(-1)).toMatchObject({ skill: "text-tools", tool: "slugify", agent: "alpha", status: "succeeded" });
    expect(first.at(-1)).toMatchObject({ ran_on: "your Link alices-laptop", cost_micros: expect.any(String) });
    expect(ids((await get(runsRoute, "/api/v1/runs", "bob")).body)).toEqual([bobsJob]);
  });

  it("filters by skill, tool, agent, status and day", async () => {
    const q = async (query: string) => ids((await get(runsRoute, `/api/v1/runs?${query}`, "alice")).body);
    const newestFirst = (pick: (m: (typeof made)[number]) => boolean) =>
      made
        .filter(pick)
        .map((m) => m.jobId)
        .reverse();
    expect(await q("tool=word_count")).toEqual(newestFirst((m) => m.tool === "word_count"));
    expect(await q(`agent=${agentIds.beta}`)).toEqual(newestFirst((m) => m.agent === "beta"));
    expect(await q(`agent=${agentIds.alpha}&tool=slugify`)).toEqual(
      newestFirst((m) => m.agent === "alpha" && m.tool === "slugify"),
    );
    expect(await q("status=succeeded")).toEqual([made[1]!.jobId, made[0]!.jobId]);
    expect(await q("skill=text-tools")).toHaveLength(made.length);
    expect(await q("skill=csv-stats")).toEqual([]);
    const today = new Date().toISOString().slice(0, 10);
    const tomorrow = new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);
    expect(await q(`from=${today}&to=${today}`)).toHaveLength(made.length);
    expect(await q(`from=${tomorrow}`)).toEqual([]);
    // Another person's agent filters to nothing, never to their runs.
    expect(await q(`agent=${agentIds.bobs}`)).toEqual([]);
  });

  it("refuses bad parameters with stable codes", async () => {
    const cases: [string, string][] = [
      ["status=bogus", "run.filter_invalid"],
      ["tool=Not%20A%20Tool", "run.filter_invalid"],
      ["skill=Bad_Slug", "run.filter_invalid"],
      ["limit=0", "run.filter_invalid"],
      ["limit=101", "run.filter_invalid"],
      ["from=2026-13-01", "run.filter_invalid"],
      ["from=2026-03-02&to=2026-03-01", "run.filter_invalid"],
      ["cursor=nonsense", "run.cursor_invalid"],
    ];
    for (const [query, code] of cases) {
      const answer = await get(runsRoute, `/api/v1/runs?${query}`, "alice");
      expect(answer.status, query).toBe(422);
      expect((answer.body.error as { code: string }).code, query).toBe(code);
    }
    const long = await get(runsRoute, `/api/v1/runs?tool=${"a".repeat(101)}`, "alice");
    expect(long.status).toBeGreaterThanOrEqual(400);
    expect(long.status).toBeLessThan(500);
  });

  it("another person's run answers 404", async () => {
    const theirs = await get(runRoute, `/api/v1/runs/${bobsJob}`, "alice", { id: bobsJob });
    expect(theirs.status).toBe(404);
    const mine = await get(runRoute, `/api/v1/runs/${bobsJob}`, "bob", { id: bobsJob });
    expect(mine.status).toBe(200);
  });
});

describe("GET /api/v1/steps", () => {
  const ids = (body: Json) => (body.steps as { id: string }[]).map((s) => s.id);

  it("pages by cursor, filters like the runs, and keeps ?pending=1", async () => {
    const all = [...made.map((m) => m.stepId), pendingStepId].reverse();
    const seen: string[] = [];
    let cursor: string | null = null;
    for (let i = 0; i < 10; i++) {
      const page = await get(stepsRoute, `/api/v1/steps?limit=3${cursor ? `&cursor=${cursor}` : ""}`, "alice");
      expect(page.status).toBe(200);
      seen.push(...ids(page.body));
      cursor = page.body.next_cursor as string | null;
      if (!cursor) break;
    }
    expect(seen).toEqual(all);
    const q = async (query: string) => ids((await get(stepsRoute, `/api/v1/steps?${query}`, "alice")).body);
    expect(await q("pending=1")).toEqual([pendingStepId]);
    expect(await q("status=pending_approval")).toEqual([pendingStepId]);
    expect(await q("status=succeeded&tool=word_count")).toEqual([made[1]!.stepId]);
    expect(await q(`agent=${agentIds.beta}`)).toEqual(
      made
        .filter((m) => m.agent === "beta")
        .map((m) => m.stepId)
        .reverse(),
    );
    expect(await q(`agent=${agentIds.bobs}`)).toEqual([]);
    const step = (await get(stepsRoute, "/api/v1/steps?status=succeeded&tool=slugify", "alice")).body.steps as Json[];
    expect(step[0]).toMatchObject({ job: { id: made[0]!.jobId, ran_on: "your Link alices-laptop" } });
    expect(ids((await get(stepsRoute, "/api/v1/steps", "bob")).body)).toHaveLength(1);
  });

  it("refuses bad parameters with stable codes", async () => {
    for (const [query, code] of [
      ["status=sleeping", "run.filter_invalid"],
      ["limit=201", "run.filter_invalid"],
      ["cursor=1.2.3", "run.cursor_invalid"],
    ] as const) {
      const answer = await get(stepsRoute, `/api/v1/steps?${query}`, "alice");
      expect(answer.status, query).toBe(422);
      expect((answer.body.error as { code: string }).code, query).toBe(code);
    }
  });
});
