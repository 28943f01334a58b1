// A Link runs several jobs at once (issue 23 §1). The claim hands out up to the Link's free slots,
// oldest first in turns across agents and within the memory it has free; a real `openvibe-link run
// --jobs N` runs them side by side, one killed at its limit leaving the others running, and never
// holds more `mem_bytes` at once than its memory budget.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { setupIntegration, type IntegrationEnv } from "../helpers/integration";
import { linkHome, linkRoutes, until, type LinkHome } from "../helpers/link-process";
import { serveRoutes, type RouteTable } from "../helpers/route-server";
import { closeRunPath, linkFor, pendingStep } from "../helpers/runs";
import { callTool, grantWordCount, seedSlowSkill, seedWorld, waitStep, type World } from "../helpers/world";

const MIB = 1024 * 1024;

let env: IntegrationEnv;
let server: Awaited<ReturnType<typeof serveRoutes>>;
let home: LinkHome;
let world: World;
/** Jobs the server handed over, by polls and with results (`next`), as its answers said. */
const handed = { byPoll: 0, byResult: 0 };

type Route = RouteTable[number];
/** The route, counting the jobs its answers hand over. */
function counting(route: Route, count: (answer: { jobs?: unknown[]; next?: { jobs?: unknown[] } }) => void): Route {
  return {
    ...route,
    handler: async (req, ctx) => {
      const res = await route.handler(req, ctx);
      count((await res.clone().json()) as Parameters<typeof count>[0]);
      return res;
    },
  };
}

beforeAll(async () => {
  env = await setupIntegration("linkjobs");
  home = await linkHome("linkjobs");
  server = await serveRoutes(
    (await linkRoutes()).map((route) =>
      route.pattern === "/api/link/v1/poll"
        ? counting(route, (a) => void (handed.byPoll += a.jobs?.length ?? 0))
        : route.pattern === "/api/link/v1/jobs/[id]/result"
          ? counting(route, (a) => void (handed.byResult += a.next?.jobs?.length ?? 0))
          : route,
    ),
  );
  world = await seedWorld("linkjobs@example.test");
  await seedSlowSkill(world);
  await seedSlowSkill(world, { slug: "tight-tools", limits: { wall_ms: 1_500 } });
  await seedSlowSkill(world, { slug: "big-tools", limits: { wall_ms: 20_000, mem_bytes: 192 * MIB } });
  // "Always allow" for word_count of each (with no Link online yet, the granting call itself ends no_node).
  for (const skill of ["slow-tools@1.0.0", "tight-tools@1.0.0", "big-tools@1.0.0"])
    await grantWordCount(server.url, world, skill);
}, 180_000);

afterAll(async () => {
  await home?.stop();
  await server?.close();
  await closeRunPath();
  await env?.teardown();
});

describe("the claim of several jobs", () => {
  it("hands out up to `max` jobs, oldest first in turns across agents, within the memory left", async () => {
    const person = { id: world.userId };
    const { getDefaultProject } = await import("../../lib/auth/users");
    const projectId = (await getDefaultProject(person.id))!.id;
    const versionId = (await env.db.skillVersion.findFirstOrThrow({ where: { skill: { slug: "text-tools" } } })).id;
    const { createAgent } = await import("../../lib/agents");
    const busy = (await createAgent(person.id, { name: "busy" })).agent;
    const quiet = (await createAgent(person.id, { name: "quiet" })).agent;
    const { submitStepJob, pollForJob } = await import("../../lib/runs");
    const link = await linkFor(env, person.id);
    const made: { id: string; agent: string }[] = [];
    for (const [agent, n] of [
      [busy, 5],
      [quiet, 2],
    ] as const)
      for (let i = 0; i < n; i++) {
        const step = await pendingStep(env, { userId: person.id, projectId, versionId, agentId: agent.id });
        expect((await submitStepJob(step.id, false)).kind).toBe("queued");
        made.push({ id: step.id, agent: agent.name });
      }
    const poll = (max: number, mem?: number) =>
      pollForJob(link, { runner: "on", runner_epoch: 0, pool: false, wait_ms: 0, max, mem_free_bytes: mem });
    const agentOf = async (jobs: { job: { id: string } }[]) => {
      const rows = await env.db.runJob.findMany({ where: { id: { in: jobs.map((j) => j.job.id) } } });
      const byJob = new Map(rows.map((r) => [r.id, made.find((m) => m.id === r.stepId)!.agent]));
      return jobs.map((j) => byJob.get(j.job.id));
    };

    const first = await poll(4);
    expect(first.jobs).toHaveLength(4);
    expect(first.job?.id).toBe(first.jobs![0]!.job.id);
    // The quiet agent's two calls came after the busy one's five, and still go in this poll.
    expect(await agentOf(first.jobs!)).toEqual(["busy", "quiet", "busy", "quiet"]);

    // text-tools declares 128 MiB: 300 MiB free fits two of them, whatever `max` says.
    const second = await poll(4, 300 * MIB);
    expect(second.jobs).toHaveLength(2);
    expect(await agentOf(second.jobs!)).toEqual(["busy", "busy"]);
    expect((await poll(4, 100 * MIB)).jobs).toEqual([]);
    const last = await poll(4);
    expect(await agentOf(last.jobs!)).toEqual(["busy"]);
    const mine = { userId: person.id, stepId: { in: made.map((m) => m.id) } };
    const states = await env.db.runJob.groupBy({ by: ["state"], where: mine, _count: true });
    expect(states).toEqual([{ state: "placed", _count: 7 }]);
    // Withdrawn, so that the real Link below never gets them.
    const { cancelJob } = await import("../../lib/runs/lifecycle");
    for (const job of await env.db.runJob.findMany({ where: mine }))
      await cancelJob(job.id, "run.job.cancelled", "test");
    await env.db.link.update({ where: { id: link.linkId }, data: { revokedAt: new Date() } });
  });
});

/** The run times of the steps' jobs, as the server recorded them (start in the poll, end with the result). */
async function runTimes(stepIds: string[]) {
  const jobs = await env.db.runJob.findMany({ where: { stepId: { in: stepIds } } });
  return stepIds.map((id) => {
    const job = jobs.find((j) => j.stepId === id)!;
    return { start: job.startedAt!.getTime(), end: job.finishedAt!.getTime(), status: job.resultStatus };
  });
}

const overlap = (a: { start: number; end: number }, b: { start: number; end: number }) =>
  a.start < b.end && b.start < a.end;

describe("a real Link with --jobs", () => {
  it("runs jobs side by side, and one killed at its wall clock leaves the others running", async () => {
    const { createPairingCode } = await import("../../lib/links");
    const { code } = await createPairingCode(world.userId);
    expect((await home.cli(["pair", code, "--server", server.url, "--name", "jobs-laptop"])).status).toBe(0);
    expect((await home.cli(["skills", "on"])).status).toBe(0);
    const link = home.start(["--jobs", "3"]);
    await until("the Link to print its slots", async () => /Runs up to 3 jobs at once \(--jobs 3/.test(link.output()));

    const calls = await Promise.all([
      callTool(server.url, world, { text: "wait 3000 a b" }, { skill: "slow-tools@1.0.0" }),
      callTool(server.url, world, { text: "wait 3000 c d e" }, { skill: "slow-tools@1.0.0" }),
      callTool(server.url, world, { text: "wait 9000 f" }, { skill: "tight-tools@1.0.0" }),
    ]);
    const ids = calls.map((c) => c.body.id!);
    const done = await Promise.all(ids.map((id) => waitStep([server.url], world, id, 60_000)));
    expect(
      done.map((d) => d.status),
      link.output(),
    ).toEqual(["succeeded", "succeeded", "failed"]);
    expect(done.slice(0, 2).map((d) => (d as { result?: { data?: { words?: number } } }).result?.data?.words)).toEqual([
      4, 5,
    ]);
    const [a, b, tight] = await runTimes(ids);
    expect(tight!.status).toBe("timeout");
    expect(overlap(a!, b!)).toBe(true);
    expect(overlap(a!, tight!) && overlap(b!, tight!)).toBe(true);
    // Killed at 1.5 s, while the others went on to the end of their 3 s.
    expect(tight!.end).toBeLessThan(Math.min(a!.end, b!.end));
    expect(await env.db.ledgerEntry.count({ where: { job: { stepId: { in: ids } }, kind: "charge" } })).toBe(3);
  }, 120_000);

  it("never holds more memory at once than its budget: a job that does not fit waits for the other", async () => {
    await home.stopProcesses();
    // Two slots, but 256 MiB for jobs: two 192 MiB jobs cannot run together.
    const link = home.start(["--jobs", "2", "--memory", "256"]);
    await until("the Link to print its slots", async () =>
      /Runs up to 2 jobs at once \(--jobs 2, 256 MiB/.test(link.output()),
    );
    const calls = await Promise.all([
      callTool(server.url, world, { text: "wait 1500 a" }, { skill: "big-tools@1.0.0" }),
      callTool(server.url, world, { text: "wait 1500 b" }, { skill: "big-tools@1.0.0" }),
    ]);
    const ids = calls.map((c) => c.body.id!);
    const done = await Promise.all(ids.map((id) => waitStep([server.url], world, id, 60_000)));
    expect(
      done.map((d) => d.status),
      link.output(),
    ).toEqual(["succeeded", "succeeded"]);
    const [a, b] = await runTimes(ids);
    expect(overlap(a!, b!)).toBe(false);

    // The same Link with room for both runs them together.
    await home.stopProcesses();
    const roomy = home.start(["--jobs", "2", "--memory", "512"]);
    await until("the Link to print its slots", async () => /--jobs 2, 512 MiB/.test(roomy.output()));
    const again = await Promise.all([
      callTool(server.url, world, { text: "wait 2500 c" }, { skill: "big-tools@1.0.0" }),
      callTool(server.url, world, { text: "wait 2500 d" }, { skill: "big-tools@1.0.0" }),
    ]);
    const more = again.map((c) => c.body.id!);
    expect(
      (await Promise.all(more.map((id) => waitStep([server.url], world, id, 60_000)))).map((d) => d.status),
    ).toEqual(["succeeded", "succeeded"]);
    const [c, d] = await runTimes(more);
    expect(overlap(c!, d!)).toBe(true);
  }, 120_000);

  it("with one slot, each result brings the next queued job back: no poll between them", async () => {
    await home.stopProcesses();
    const link = home.start(["--jobs", "1"]);
    await until("the Link to print its slot", async () => /Runs up to 1 job at once \(--jobs 1/.test(link.output()));
    const before = { ...handed };
    const calls = await Promise.all(
      ["a", "b c", "d e f"].map((words) =>
        callTool(server.url, world, { text: `wait 400 ${words}` }, { skill: "slow-tools@1.0.0" }),
      ),
    );
    const ids = calls.map((c) => c.body.id!);
    const done = await Promise.all(ids.map((id) => waitStep([server.url], world, id, 60_000)));
    expect(
      done.map((d) => d.status),
      link.output(),
    ).toEqual(["succeeded", "succeeded", "succeeded"]);
    const runs = await runTimes(ids);
    expect(runs.some((a, i) => runs.some((b, j) => i !== j && overlap(a!, b!)))).toBe(false);
    // The first came with a poll; the other two each with the result of the one before.
    expect([handed.byPoll - before.byPoll, handed.byResult - before.byResult]).toEqual([1, 2]);
  }, 120_000);
});
