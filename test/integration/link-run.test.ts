// The whole loop with a real `openvibe-link` process: pair with a dashboard code, turn the runner
// on, `run`; an agent calls a tool, the person approves, the Link runs it in the sandbox and the
// agent gets the result as untrusted data. Then the Link is killed mid-job: the job is placed again.
import { spawn, type ChildProcess } from "node:child_process";
import { readdir, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { setupIntegration, type IntegrationEnv } from "../helpers/integration";
import { serveRoutes } from "../helpers/route-server";
import { tempDir } from "../helpers/temp-dir";

const ROOT = path.resolve(import.meta.dirname, "../..");
const BIN = path.join(ROOT, "link/bin/openvibe-link.mjs");
let env: IntegrationEnv;
let server: Awaited<ReturnType<typeof serveRoutes>>;
let home: string;
let agentToken: string;
let person: { id: string };
let steps: typeof import("../../lib/steps");
const children: ChildProcess[] = [];

function linkEnv() {
  return {
    PATH: process.env.PATH,
    // The run's own temp folder (npm test), where the Link's job folders belong too.
    TMPDIR: process.env.TMPDIR,
    HOME: home,
    OPENVIBE_LINK_HOME: path.join(home, "link"),
  } as unknown as NodeJS.ProcessEnv;
}

/** Async on purpose: the routes are served from this very process, so a blocking spawn would deadlock. */
function linkCli(args: string[]): Promise<{ status: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [BIN, ...args], { env: linkEnv() });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d) => (stdout += d));
    child.stderr.on("data", (d) => (stderr += d));
    child.on("close", (status) => resolve({ status, stdout, stderr }));
  });
}

function startLink(): { child: ChildProcess; output: () => string } {
  const child = spawn(process.execPath, [BIN, "run"], { env: linkEnv() });
  children.push(child);
  let text = "";
  child.stdout!.on("data", (d) => (text += d));
  child.stderr!.on("data", (d) => (text += d));
  return { child, output: () => text };
}

async function until<T>(what: string, fn: () => Promise<T | null | undefined | false>, ms = 30_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await fn();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

async function call(body: unknown) {
  const res = await fetch(`${server.url}/api/v1/steps`, {
    method: "POST",
    headers: { authorization: `Bearer ${agentToken}`, "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  return { status: res.status, body: await res.json() };
}

async function waitStep(id: string) {
  const res = await fetch(`${server.url}/api/v1/steps/${id}?wait=25`, {
    headers: { authorization: `Bearer ${agentToken}` },
  });
  return res.json();
}

beforeAll(async () => {
  env = await setupIntegration("linkrun");
  home = tempDir("linkrun");
  const r = (p: string) => import(p);
  const routes = {
    pair: await r("../../app/api/link/v1/pair/route"),
    heartbeat: await r("../../app/api/link/v1/heartbeat/route"),
    poll: await r("../../app/api/link/v1/poll/route"),
    start: await r("../../app/api/link/v1/jobs/[id]/start/route"),
    result: await r("../../app/api/link/v1/jobs/[id]/result/route"),
    release: await r("../../app/api/link/v1/jobs/[id]/release/route"),
    inputs: await r("../../app/api/link/v1/jobs/[id]/inputs/[mediaId]/route"),
    steps: await r("../../app/api/v1/steps/route"),
    step: await r("../../app/api/v1/steps/[id]/route"),
  };
  server = await serveRoutes([
    { method: "POST", pattern: "/api/link/v1/pair", handler: routes.pair.POST },
    { method: "POST", pattern: "/api/link/v1/heartbeat", handler: routes.heartbeat.POST },
    { method: "POST", pattern: "/api/link/v1/poll", handler: routes.poll.POST },
    { method: "POST", pattern: "/api/link/v1/jobs/[id]/start", handler: routes.start.POST },
    { method: "POST", pattern: "/api/link/v1/jobs/[id]/result", handler: routes.result.POST },
    { method: "POST", pattern: "/api/link/v1/jobs/[id]/release", handler: routes.release.POST },
    { method: "GET", pattern: "/api/link/v1/jobs/[id]/inputs/[mediaId]", handler: routes.inputs.GET },
    { method: "POST", pattern: "/api/v1/steps", handler: routes.steps.POST },
    { method: "GET", pattern: "/api/v1/steps/[id]", handler: routes.step.GET },
  ]);
  steps = await import("../../lib/steps");
  const { createUser } = await import("../../lib/auth/users");
  const { loadBundle } = await import("../../lib/contracts");
  const { publishSkill, scanVersion } = await import("../../lib/registry");
  const { installSkill } = await import("../../lib/installs");
  const { recordTopUp } = await import("../../lib/billing/ledger");
  const { createAgent } = await import("../../lib/agents");
  person = await createUser({ email: "linkrun@example.test", name: "Link Runner", password: null });
  const bundle = await loadBundle(path.join(ROOT, "skills/demo/text-tools"));
  if (!bundle.ok) throw new Error("bundle");
  const published = await publishSkill({ ownerId: person.id, document: bundle.document, scan: "none" });
  await scanVersion(published.versionId);
  await installSkill({ userId: person.id, slug: "text-tools", version: bundle.document.version });
  await recordTopUp({ userId: person.id, amountMicros: 5_000_000n, paymentId: "linkrun", memo: "test" });
  agentToken = (await createAgent(person.id, { name: "helper-bot" })).token;
}, 180_000);

/** Stops a Link the way a person does (its sandbox then removes its own folders), SIGKILL if it hangs. */
async function stopLink(child: ChildProcess) {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once("exit", resolve));
  child.kill("SIGTERM");
  const timer = setTimeout(() => child.kill("SIGKILL"), 10_000);
  await exited;
  clearTimeout(timer);
}

afterAll(async () => {
  await Promise.all(children.map(stopLink));
  await server?.close();
  await (await import("../../lib/runs")).dispatchQueue().close();
  await (await import("../../lib/registry")).scanQueue().close();
  await (await import("../../lib/events")).closeEvents();
  await env?.teardown();
});

describe("a real Link", () => {
  it("pairs with a one-time code, keeps its private key 0600, and is off until turned on", async () => {
    const { createPairingCode } = await import("../../lib/links");
    const { code } = await createPairingCode(person.id);
    const paired = await linkCli(["pair", code, "--server", server.url, "--name", "test-laptop"]);
    expect(paired.stderr).toBe("");
    expect(paired.status).toBe(0);
    expect(paired.stdout).toMatch(/Paired as "test-laptop"/);
    const key = await stat(path.join(home, "link", "link.key"));
    expect(key.mode & 0o777).toBe(0o600);
    const link = await env.db.link.findFirstOrThrow({ where: { userId: person.id } });
    expect(link.runnerEnabled).toBe(false);
    expect(link.publicKey).not.toContain("PRIVATE");
    expect((await linkCli(["pair", code, "--server", server.url])).stderr).toMatch(/link.pairing_code_invalid/);
    const on = await linkCli(["skills", "on"]);
    expect(on.status).toBe(0);
    expect((await env.db.link.findFirstOrThrow({ where: { id: link.id } })).runnerEnabled).toBe(true);
    expect((await linkCli(["status"])).stdout).toMatch(/server: reachable/);
  });

  it("runs an approved call in the sandbox and the agent gets the result as untrusted data", async () => {
    const link = startLink();
    await until(
      "the Link to poll",
      async () =>
        (await env.db.link.findFirst({
          where: { userId: person.id, lastSeenAt: { gt: new Date(Date.now() - 5_000) } },
        })) !== null,
    ).catch((err: Error) => {
      throw new Error(`${err.message}\n${link.output()}`);
    });
    const created = await call({ skill: "text-tools@2.0.1", tool: "slugify", input: { text: "Héllo Wörld, again!" } });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      kind: "skill.run",
      label: "running a skill's code in a sandbox",
      target: "text-tools@2.0.1 slugify",
      status: "pending_approval",
    });
    await steps.decideStep(person.id, created.body.id, "once");
    const done = await waitStep(created.body.id);
    expect(done.status, link.output()).toBe("succeeded");
    expect(done.result).toEqual({
      type: "tool_result",
      untrusted: true,
      data: expect.objectContaining({ slug: "hello-world-again" }),
    });
    expect(done).not.toHaveProperty("stderr");
    expect(done.exit_status).toBe("ok");
  });

  it("with always allow, the next call of that tool needs no click", async () => {
    const first = await call({ skill: "text-tools@2.0.1", tool: "word_count", input: { text: "one two three" } });
    await steps.decideStep(person.id, first.body.id, "always");
    expect((await waitStep(first.body.id)).status).toBe("succeeded");
    const second = await call({ skill: "text-tools@2.0.1", tool: "word_count", input: { text: "four five" } });
    expect(second.body.status).not.toBe("pending_approval");
    const done = await waitStep(second.body.id);
    expect(done.status).toBe("succeeded");
    // The grant covers exactly that tool.
    const other = await call({ skill: "text-tools@2.0.1", tool: "slugify", input: { text: "x" } });
    expect(other.body.status).toBe("pending_approval");
    await steps.decideStep(person.id, other.body.id, "deny");
    expect((await waitStep(other.body.id)).status).toBe("denied");
  });

  it("refuses bad input with paths before anything is recorded", async () => {
    const before = await env.db.step.count();
    const bad = await call({ skill: "text-tools@2.0.1", tool: "slugify", input: { text: 42, extra: true } });
    expect(bad.status).toBe(422);
    expect(bad.body.error.code).toBe("step.input_invalid");
    expect(await env.db.step.count()).toBe(before);
  });

  it("killed mid-job, the Link's job is placed again once it is back and finishes exactly once", async () => {
    const grant = await call({ skill: "text-tools@2.0.1", tool: "word_count", input: { text: "a b c" } });
    expect((await waitStep(grant.body.id)).status).toBe("succeeded");
    for (const child of children) child.kill("SIGKILL");
    const orphan = await call({ skill: "text-tools@2.0.1", tool: "word_count", input: { text: "x y" } });
    const job = await until("the job to be queued", () =>
      env.db.runJob.findFirst({ where: { stepId: orphan.body.id } }),
    );
    // Pretend the dead Link had claimed and started it, then went silent past its lease.
    await env.db.runJob.update({
      where: { id: job.id },
      data: {
        state: "running",
        linkId: (await env.db.link.findFirstOrThrow({ where: { userId: person.id } })).id,
        attempts: 1,
        leaseExpiresAt: new Date(Date.now() - 1),
      },
    });
    const { onLeaseExpired } = await import("../../lib/runs");
    expect(await onLeaseExpired(job.id)).toBe("requeued");
    const link = startLink();
    const done = await waitStep(orphan.body.id);
    expect(done.status, link.output()).toBe("succeeded");
    expect(await env.db.ledgerEntry.count({ where: { jobId: job.id, kind: "charge" } })).toBe(1);
    const leftovers = await readdir(tmpdir());
    expect(leftovers.filter((f) => f.startsWith("openvibe-job-")).length).toBeLessThan(50);
  });
});
