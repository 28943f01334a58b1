// The whole loop with a real `openvibe-link` process: pair with a dashboard code, turn the runner
// on, `run`; an agent calls a tool, the person approves, the Link runs it in the sandbox and the
// agent gets the result as untrusted data. Then the Link is killed mid-job: the job is placed again.
import { readdir, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { setupIntegration, type IntegrationEnv } from "../helpers/integration";
import { linkHome, linkRoutes, until, type LinkHome } from "../helpers/link-process";
import { serveRoutes } from "../helpers/route-server";
import { seedWorld } from "../helpers/world";

let env: IntegrationEnv;
let server: Awaited<ReturnType<typeof serveRoutes>>;
let home: LinkHome;
let agentToken: string;
let person: { id: string };
let steps: typeof import("../../lib/steps");

const linkCli = (args: string[]) => home.cli(args);
const startLink = () => home.start();

async function call(body: unknown, headers: Record<string, string> = {}) {
  const res = await fetch(`${server.url}/api/v1/steps`, {
    method: "POST",
    headers: { authorization: `Bearer ${agentToken}`, "content-type": "application/json", ...headers },
    body: JSON.stringify(body),
  });
  return { status: res.status, body: await res.json(), applied: res.headers.get("preference-applied") };
}

async function waitStep(id: string) {
  const res = await fetch(`${server.url}/api/v1/steps/${id}?wait=25`, {
    headers: { authorization: `Bearer ${agentToken}` },
  });
  return res.json();
}

beforeAll(async () => {
  env = await setupIntegration("linkrun");
  home = await linkHome("linkrun");
  server = await serveRoutes(await linkRoutes());
  steps = await import("../../lib/steps");
  const world = await seedWorld("linkrun@example.test");
  person = { id: world.userId };
  agentToken = world.agentToken;
}, 180_000);

afterAll(async () => {
  await home?.stop();
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
    const key = await stat(path.join(home.dir, "link", "link.key"));
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
    // The Link signed it (net deny: an empty egress record), and the server checked that before recording.
    expect(done).toMatchObject({
      attestation: { statement: { status: "ok", egress: [] }, key_id: expect.stringMatching(/^ed25519:/) },
    });
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

  it("with Prefer: wait, the call's own answer carries its result", async () => {
    const done = await call(
      { skill: "text-tools@2.0.1", tool: "word_count", input: { text: "six seven eight nine" } },
      { prefer: "wait=20" },
    );
    expect(done.status).toBe(201);
    expect(done.applied).toBe("wait=20");
    expect(done.body.status).toBe("succeeded");
    expect(done.body.result).toEqual(expect.objectContaining({ untrusted: true }));
    // Without the preference the answer is the step as accepted.
    const queued = await call({ skill: "text-tools@2.0.1", tool: "word_count", input: { text: "ten" } });
    expect(queued.applied).toBeNull();
    expect(queued.body.status).toBe("queued");
    expect((await waitStep(queued.body.id)).status).toBe("succeeded");
  });

  it("refuses bad input with paths before anything is recorded", async () => {
    const before = await env.db.step.count();
    const bad = await call({ skill: "text-tools@2.0.1", tool: "slugify", input: { text: 42, extra: true } });
    expect(bad.status).toBe(422);
    expect(bad.body.error.code).toBe("step.input_invalid");
    expect(await env.db.step.count()).toBe(before);
  });

  it("killed after claiming a job, the Link's job is placed again once it is back and finishes exactly once", async () => {
    const grant = await call({ skill: "text-tools@2.0.1", tool: "word_count", input: { text: "a b c" } });
    expect((await waitStep(grant.body.id)).status).toBe("succeeded");
    await home.stopProcesses();
    const orphan = await call({ skill: "text-tools@2.0.1", tool: "word_count", input: { text: "x y" } });
    const job = await until("the job to be queued", () =>
      env.db.runJob.findFirst({ where: { stepId: orphan.body.id } }),
    );
    // Pretend the dead Link had claimed it (not started it), then went silent past its lease.
    await env.db.runJob.update({
      where: { id: job.id },
      data: {
        state: "placed",
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
    // Every result it sent is acknowledged: none is left waiting in its state folder (the Link
    // removes one as the server's answer reaches it, which may be just after the agent saw the end).
    const results = path.join(home.dir, "link", "results");
    await until("every result to be acknowledged", async () => (await readdir(results)).length === 0);
    expect(await readdir(results)).toEqual([]);
  });
});
