// The runs list against the real PostgreSQL: only the person's own runs, each filter, keyset pages
// that neither skip nor repeat a row (also when two runs share a timestamp), and bad filters refused.
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { setupIntegration, type IntegrationEnv } from "../../test/helpers/integration";
import { linkFor } from "../../test/helpers/runs";

let env: IntegrationEnv;
let list: typeof import("./list");
let me: string;
let other: string;
let myProject: string;
let otherProject: string;
let versionId: string;
let alpha: string;
let beta: string;
let othersAgent: string;
let n = 0;

async function run(
  userId: string,
  projectId: string,
  p: {
    at: string;
    state?: "queued" | "succeeded" | "failed";
    agentId?: string;
    tool?: string;
    placement?: "own" | "pool";
    linkId?: string;
    cost?: bigint;
  },
) {
  const id = `job_list_${String(++n).padStart(3, "0")}`;
  const step = await env.db.step.create({
    data: {
      userId,
      projectId,
      versionId,
      agentId: p.agentId ?? null,
      kind: "skill.run",
      label: "running a skill's code in a sandbox",
      target: `text-tools@2.0.1 ${p.tool ?? "slugify"}`,
      tool: p.tool ?? "slugify",
      input: { text: `run ${n}` },
      net: "deny",
      status: p.state === "succeeded" ? "succeeded" : "queued",
      expiresAt: new Date(Date.now() + 600_000),
    },
  });
  await env.db.runJob.create({
    data: {
      id,
      userId,
      projectId,
      stepId: step.id,
      versionId,
      tool: p.tool ?? "slugify",
      class: "function",
      artifactName: "openvibe-skill-runner",
      artifactVersion: "1.0.0",
      inputs: [],
      net: "deny",
      wallMs: 10_000,
      memBytes: 134_217_728n,
      ttlMs: 120_000,
      state: p.state ?? "queued",
      placement: p.placement ?? null,
      linkId: p.linkId ?? null,
      wallMsUsed: p.state === "succeeded" ? 1200 : null,
      costMicros: p.cost ?? null,
      createdAt: new Date(p.at),
      expiresAt: new Date(Date.now() + 120_000),
    },
  });
  return id;
}

beforeAll(async () => {
  env = await setupIntegration("runs-list");
  list = await import("./list");
  const { createUser, getDefaultProject } = await import("../auth/users");
  const { createAgent } = await import("../agents");
  const { publishSkill } = await import("../registry");
  const { loadBundle } = await import("../contracts");
  me = (await createUser({ email: "runs-me@example.test", name: "Me", password: null })).id;
  other = (await createUser({ email: "runs-other@example.test", name: "Other", password: null })).id;
  myProject = (await getDefaultProject(me))!.id;
  otherProject = (await getDefaultProject(other))!.id;
  const bundle = await loadBundle(path.resolve(import.meta.dirname, "../../scripts/demo/skills/text-tools"));
  if (!bundle.ok) throw new Error("bundle");
  versionId = (await publishSkill({ ownerId: me, document: bundle.document, scan: "none" })).versionId;
  alpha = (await createAgent(me, { name: "alpha bot" })).agent.id;
  beta = (await createAgent(me, { name: "beta bot" })).agent.id;
  othersAgent = (await createAgent(other, { name: "someone else's bot" })).agent.id;
  const myLink = await linkFor(env, me, { name: "kitchen laptop" });

  await run(me, myProject, {
    at: "2026-03-01T10:00:00Z",
    state: "succeeded",
    agentId: alpha,
    placement: "own",
    linkId: myLink.linkId,
    cost: 100n,
  });
  await run(me, myProject, {
    at: "2026-03-02T10:00:00Z",
    state: "failed",
    agentId: beta,
    placement: "pool",
    cost: 1000n,
  });
  // Two runs at the same instant: the id breaks the tie, so pages still neither skip nor repeat.
  await run(me, myProject, { at: "2026-03-03T10:00:00Z", agentId: alpha, tool: "word-count" });
  await run(me, myProject, { at: "2026-03-03T10:00:00Z", agentId: beta });
  await run(me, myProject, {
    at: "2026-03-04T23:59:59.999Z",
    state: "succeeded",
    agentId: alpha,
    placement: "pool",
    cost: 2000n,
  });
  await run(other, otherProject, {
    at: "2026-03-02T12:00:00Z",
    state: "succeeded",
    agentId: othersAgent,
    placement: "pool",
    cost: 5n,
  });
  await run(other, otherProject, { at: "2026-03-05T12:00:00Z", agentId: othersAgent });
}, 120_000);

afterAll(async () => {
  await (await import("../registry")).scanQueue().close();
  await env?.teardown();
});

const ids = (rows: { id: string }[]) => rows.map((r) => r.id);

describe("listRuns", () => {
  it("lists the person's runs newest first, with skill, tool, agent, where it ran, status, wall time and cost", async () => {
    const { runs, nextCursor } = await list.listRuns(me);
    expect(nextCursor).toBeNull();
    expect(ids(runs)).toEqual(["job_list_005", "job_list_004", "job_list_003", "job_list_002", "job_list_001"]);
    expect(runs[4]).toMatchObject({
      skill: "text-tools",
      version: "2.0.1",
      tool: "slugify",
      agent: "alpha bot",
      state: "succeeded",
      ran_on: "your Link kitchen laptop",
      wall_ms: 1200,
      cost_micros: 100n,
    });
    expect(runs[3]).toMatchObject({ ran_on: "OpenVibe pool", agent: "beta bot", state: "failed" });
    expect(runs[2]).toMatchObject({ ran_on: null, cost_micros: null, wall_ms: null });
  });

  it("never shows someone else's runs, whatever the filter names", async () => {
    const mine = await list.listRuns(me, { limit: 100 });
    expect(ids(mine.runs).some((id) => id === "job_list_006" || id === "job_list_007")).toBe(false);
    expect((await list.listRuns(me, { agentId: othersAgent })).runs).toEqual([]);
    const theirs = await list.listRuns(other);
    expect(ids(theirs.runs)).toEqual(["job_list_007", "job_list_006"]);
    expect((await list.listRuns(other, { agentId: alpha })).runs).toEqual([]);
    const facets = await list.runFacets(other);
    expect(facets.agents.map((a) => a.name)).toEqual(["someone else's bot"]);
  });

  it("filters by skill, agent, status and UTC day", async () => {
    expect(ids((await list.listRuns(me, list.runFilterFromQuery({ status: "succeeded" }))).runs)).toEqual([
      "job_list_005",
      "job_list_001",
    ]);
    expect(ids((await list.listRuns(me, list.runFilterFromQuery({ agent: beta }))).runs)).toEqual([
      "job_list_004",
      "job_list_002",
    ]);
    expect((await list.listRuns(me, list.runFilterFromQuery({ skill: "text-tools" }))).runs).toHaveLength(5);
    expect((await list.listRuns(me, list.runFilterFromQuery({ skill: "csv-stats" }))).runs).toEqual([]);
    // The "to" day is included up to its last millisecond.
    expect(
      ids((await list.listRuns(me, list.runFilterFromQuery({ from: "2026-03-03", to: "2026-03-04" }))).runs),
    ).toEqual(["job_list_005", "job_list_004", "job_list_003"]);
    const facets = await list.runFacets(me);
    expect(facets.skills).toEqual(["text-tools"]);
    expect(facets.agents.map((a) => a.name)).toEqual(["alpha bot", "beta bot"]);
  });

  it("pages by keyset: every run once, in order, across a tie", async () => {
    const seen: string[] = [];
    let cursor: string | undefined;
    let pages = 0;
    do {
      const page = await list.listRuns(me, list.runFilterFromQuery({ limit: "2", cursor }));
      seen.push(...ids(page.runs));
      cursor = page.nextCursor ?? undefined;
      pages++;
    } while (cursor && pages < 10);
    expect(pages).toBe(3);
    expect(seen).toEqual(["job_list_005", "job_list_004", "job_list_003", "job_list_002", "job_list_001"]);
  });

  it("refuses bad filters and cursors with stable codes", () => {
    const bad = (q: Record<string, string>) => () => list.runFilterFromQuery(q);
    expect(bad({ status: "pending" })).toThrow(expect.objectContaining({ code: "run.filter_invalid" }));
    expect(bad({ from: "2026-02-30" })).toThrow(expect.objectContaining({ code: "run.filter_invalid" }));
    expect(bad({ from: "2026-03-05", to: "2026-03-01" })).toThrow(
      expect.objectContaining({ code: "run.filter_invalid" }),
    );
    expect(bad({ skill: "Not A Slug" })).toThrow(expect.objectContaining({ code: "run.filter_invalid" }));
    expect(bad({ agent: "x".repeat(65) })).toThrow(expect.objectContaining({ code: "run.filter_invalid" }));
    expect(bad({ limit: "1000" })).toThrow(expect.objectContaining({ code: "run.filter_invalid" }));
    expect(bad({ cursor: "yesterday" })).toThrow(expect.objectContaining({ code: "run.cursor_invalid" }));
    expect(bad({ cursor: "9".repeat(16) + ".job" })).toThrow(expect.objectContaining({ code: "run.cursor_invalid" }));
  });
});
