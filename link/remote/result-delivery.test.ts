// A result always arrives, with a real `openvibe-link run`, its real sandbox and the real server
// routes, and failures injected in front of the result route: three 500s then success is recorded
// once and charged once; a result that cannot be delivered stays in the Link's state folder across
// a crash and is sent again when the Link starts.
import { readdir } from "node:fs/promises";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { setupIntegration, type IntegrationEnv } from "../../test/helpers/integration";
import { linkHome, linkRoutes, until, type LinkHome } from "../../test/helpers/link-process";
import { serveRoutes } from "../../test/helpers/route-server";

const ROOT = path.resolve(import.meta.dirname, "../..");
let env: IntegrationEnv;
let server: Awaited<ReturnType<typeof serveRoutes>>;
let home: LinkHome;
let person: { id: string };
let agentToken: string;
/** How the result route answers: its real handler, or an injected failure. */
let resultMode: { failNext: number; status: number } = { failNext: 0, status: 500 };
const attempts: number[] = [];
/** Whether each attempt carried the Link's next poll (`next`); with `refuseNext`, one that does is answered 422. */
const withNext: boolean[] = [];
let refuseNext = false;

async function call(text: string) {
  const res = await fetch(`${server.url}/api/v1/steps`, {
    method: "POST",
    headers: { authorization: `Bearer ${agentToken}`, "content-type": "application/json" },
    body: JSON.stringify({ skill: "text-tools@2.0.1", tool: "word_count", input: { text } }),
  });
  return (await res.json()) as { id: string; status: string };
}

const results = () => readdir(path.join(home.dir, "link", "results")).catch(() => []);

async function settled(stepId: string) {
  const job = await env.db.runJob.findFirstOrThrow({ where: { stepId }, include: { step: true } });
  const entries = await env.db.ledgerEntry.findMany({ where: { jobId: job.id } });
  return { job, entries, sum: entries.reduce((n, e) => n + e.amountMicros, 0n) };
}

beforeAll(async () => {
  env = await setupIntegration("delivery");
  const routes = await linkRoutes();
  server = await serveRoutes(
    routes.map((r) =>
      r.pattern.endsWith("/result")
        ? {
            ...r,
            handler: async (req: Request, ctx: { params: Promise<Record<string, string>> }) => {
              const folded = ((await req.clone().json()) as { next?: unknown }).next !== undefined;
              withNext.push(folded);
              if (refuseNext && folded) {
                attempts.push(422);
                const body = { error: { code: "request.invalid", message: "Unrecognized key: next", requestId: "test" } };
                return new Response(JSON.stringify(body), { status: 422, headers: { "content-type": "application/json" } });
              }
              attempts.push(resultMode.failNext > 0 ? resultMode.status : 200);
              if (resultMode.failNext > 0) {
                resultMode.failNext -= 1;
                const body = { error: { code: "internal", message: "injected failure", requestId: "test" } };
                return new Response(JSON.stringify(body), {
                  status: resultMode.status,
                  headers: { "content-type": "application/json", ...(resultMode.status === 503 ? { "retry-after": "1" } : {}) },
                });
              }
              return r.handler(req, ctx);
            },
          }
        : r,
    ),
  );
  const { createUser } = await import("../../lib/auth/users");
  const { loadBundle } = await import("../../lib/contracts");
  const { publishSkill, scanVersion } = await import("../../lib/registry");
  const { installSkill, grantAlwaysAllow } = await import("../../lib/installs");
  const { recordTopUp } = await import("../../lib/billing/ledger");
  const { createAgent } = await import("../../lib/agents");
  const { createPairingCode } = await import("../../lib/links");
  person = await createUser({ email: "delivery@example.test", name: "Delivery", password: null });
  const bundle = await loadBundle(path.join(ROOT, "scripts/demo/skills/text-tools"));
  if (!bundle.ok) throw new Error("bundle");
  const { versionId } = await publishSkill({ ownerId: person.id, document: bundle.document, scan: "none" });
  await scanVersion(versionId);
  await installSkill({ userId: person.id, slug: "text-tools", version: "2.0.1" });
  await grantAlwaysAllow({ userId: person.id, versionId, tool: "word_count" });
  await recordTopUp({ userId: person.id, amountMicros: 5_000_000n, paymentId: "delivery", memo: "test" });
  agentToken = (await createAgent(person.id, { name: "delivery-bot" })).token;
  home = await linkHome("delivery");
  const { code } = await createPairingCode(person.id);
  expect((await home.cli(["pair", code, "--server", server.url, "--name", "courier"])).status).toBe(0);
  expect((await home.cli(["skills", "on"])).status).toBe(0);
}, 180_000);

afterAll(async () => {
  await home?.stop();
  await server?.close();
  await (await import("../../lib/runs")).dispatchQueue().close();
  await (await import("../../lib/registry")).scanQueue().close();
  await (await import("../../lib/events")).closeEvents();
  await env?.teardown();
}, 60_000);

describe("the Link delivers its result", () => {
  it("retries a result answered 500 three times: recorded once, charged once", async () => {
    const run = home.start();
    resultMode = { failNext: 3, status: 500 };
    attempts.length = 0;
    const step = await call("one two three");
    await until("the result to be recorded", async () => (await settled(step.id)).job.state === "succeeded", 45_000).catch((err: Error) => {
      throw new Error(`${err.message}\n${run.output()}`);
    });
    expect(attempts).toEqual([500, 500, 500, 200]);
    const { job, entries, sum } = await settled(step.id);
    expect(job.step?.status).toBe("succeeded");
    expect(entries.filter((e) => e.kind === "charge")).toHaveLength(1);
    expect(entries.filter((e) => e.kind === "refund")).toHaveLength(1);
    // Charged exactly what it used, once: 1 started second on its own Link.
    expect(sum).toBe(-100n);
    expect(job.costMicros).toBe(100n);
    expect(run.output()).toMatch(/sending the result failed \(500 internal\)/);
    await until("the held result to be gone", async () => (await results()).length === 0, 5_000);
    await home.stopProcesses();
  }, 60_000);

  it("keeps an undelivered result across a crash and sends it when it starts again", async () => {
    const first = home.start();
    resultMode = { failNext: 1_000, status: 503 };
    const step = await call("four five");
    await until("the result to be held on disk", async () => (await results()).length === 1 && attempts.at(-1) === 503, 30_000).catch(
      (err: Error) => {
        throw new Error(`${err.message}\n${first.output()}`);
      },
    );
    await home.stopProcesses();
    expect((await settled(step.id)).job.state).toBe("running");
    resultMode = { failNext: 0, status: 500 };
    const second = home.start();
    await until("the held result to be recorded", async () => (await settled(step.id)).job.state === "succeeded", 30_000).catch(
      (err: Error) => {
        throw new Error(`${err.message}\n${second.output()}`);
      },
    );
    expect(second.output()).toMatch(/Sending the held result of job_/);
    // Kept across the restart, it goes without a next poll: the jobs it could bring are the loop's to ask for.
    expect(withNext.at(-1)).toBe(false);
    const { entries } = await settled(step.id);
    expect(entries.filter((e) => e.kind === "refund")).toHaveLength(1);
    await until("the held result to be gone", async () => (await results()).length === 0, 5_000);
  }, 60_000);

  it("sends a result again without its next poll to a server that refuses `next` (an older one)", async () => {
    const run = home.start();
    resultMode = { failNext: 0, status: 500 };
    refuseNext = true;
    attempts.length = 0;
    withNext.length = 0;
    try {
      const step = await call("six seven eight nine");
      await until("the result to be recorded", async () => (await settled(step.id)).job.state === "succeeded", 30_000).catch(
        (err: Error) => {
          throw new Error(`${err.message}\n${run.output()}`);
        },
      );
      expect(attempts).toEqual([422, 200]);
      expect(withNext).toEqual([true, false]);
      expect((await settled(step.id)).entries.filter((e) => e.kind === "charge")).toHaveLength(1);
      await until("the held result to be gone", async () => (await results()).length === 0, 5_000);
    } finally {
      refuseNext = false;
      await home.stopProcesses();
    }
  }, 60_000);
});
