// The promises of issue 13 that only a real Link can show, each with real `openvibe-link run`
// processes, the real sandbox and the real routes:
// - another person's `--pool` Link gets none of this person's jobs until an operator approves it,
//   and then the run says "OpenVibe pool";
// - `openvibe-link skills off` while `run` runs: nothing is dispatched to it, and it never turns
//   itself back on; the dashboard turns it off remotely and the Link obeys;
// - disabling a skill while its job runs: cancelled, the sandbox killed within 2 s, the hold back;
// - retiring a version while a Link holds its job: the Link refuses it with run.job.revoked.
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { setupIntegration, type IntegrationEnv } from "../helpers/integration";
import { linkHome, linkRoutes, until, type LinkHome } from "../helpers/link-process";
import { serveRoutes } from "../helpers/route-server";
import { ledgerSum, pendingStep } from "../helpers/runs";

const ROOT = path.resolve(import.meta.dirname, "../..");
/** How long the off switch is watched (the judged run uses 120 000: OV_TEST_OFF_WINDOW_MS). */
const OFF_WINDOW_MS = Number(process.env.OV_TEST_OFF_WINDOW_MS ?? 30_000);
const SPIN_CODE = `"use strict";
let raw = "";
process.stdin.on("data", (c) => (raw += c));
process.stdin.on("end", () => {
  const end = Date.now() + 25000;
  while (Date.now() < end) {}
  process.stdout.write(JSON.stringify({ spun: true }));
});
`;

let env: IntegrationEnv;
let server: Awaited<ReturnType<typeof serveRoutes>>;
let steps: typeof import("../../lib/steps");
let links: typeof import("../../lib/links");
let alice: { id: string };
let bob: { id: string };
let projectId: string;
let agent: Awaited<ReturnType<(typeof import("../../lib/agents"))["verifyAgentToken"]>>;
let aliceHome: LinkHome;
let bobHome: LinkHome;
let aliceLinkId: string;
let aliceRun: ReturnType<LinkHome["start"]>;
const versions: Record<string, string> = {};
/** While set, the inputs route waits on it: a Link then holds its job (one whose inputs it fetches) without running it. */
let inputsGate: Promise<void> | null = null;
/** Set once a request waits on the gate: the Link is then past its checks, holding the job. */
let gateReached = false;

async function publishFixture(slug: string, code: string, extra: { name: string; text: string }[] = []) {
  const { sandboxSkill } = await import("../helpers/install-fixtures");
  const { validateSkillDocument } = await import("../../lib/contracts");
  const { publishSkill } = await import("../../lib/registry");
  const { installSkill, grantAlwaysAllow } = await import("../../lib/installs");
  const document = sandboxSkill({ slug, version: "1.0.0", tools: [{ name: "go", wall_ms: 30_000 }], code });
  document.resources.push(...extra.map((r) => ({ ...r, media_type: "text/javascript" })));
  const checked = validateSkillDocument(document);
  if (!checked.ok) throw new Error(JSON.stringify(checked.errors));
  const { versionId } = await publishSkill({ ownerId: alice.id, document: checked.document, scan: "none" });
  // The busy loop is what the test needs; the scan's verdict on it is not what is under test.
  await env.db.skillVersion.update({ where: { id: versionId }, data: { status: "passed" } });
  await env.db.listing.update({ where: { versionId }, data: { scannedAt: new Date() } });
  await installSkill({ userId: alice.id, slug, version: "1.0.0" });
  await grantAlwaysAllow({ userId: alice.id, versionId, tool: "go" });
  versions[slug] = versionId;
}

async function pairAndStart(who: { id: string }, home: LinkHome, name: string, args: string[] = []) {
  const { code } = await links.createPairingCode(who.id);
  expect((await home.cli(["pair", code, "--server", server.url, "--name", name])).status).toBe(0);
  expect((await home.cli(["skills", "on"])).status).toBe(0);
  const run = home.start(args);
  const { link_id } = await home.state();
  await until(`${name} to poll`, async () => {
    const row = await env.db.link.findUnique({ where: { id: link_id } });
    const fresh = row?.lastSeenAt && Date.now() - row.lastSeenAt.getTime() < 3_000;
    return fresh && row.runnerEnabled && row.poolOffer === args.includes("--pool") && /polling/.test(run.output());
  }).catch((err: Error) => {
    throw new Error(`${err.message}\n${run.output()}`);
  });
  return { run, linkId: link_id };
}

/** A queued job of Alice's that only the Links under test could take (a stand-in Link is gone again). */
async function queuedJobNobodyElseTakes(versionId: string, tool: string) {
  const runs = await import("../../lib/runs");
  const standIn = await env.db.link.create({
    data: {
      userId: alice.id,
      name: "stand-in",
      publicKey: `s${Date.now()}`.padEnd(43, "s"),
      runnerEnabled: true,
      lastSeenAt: new Date(),
    },
  });
  const s = await pendingStep(env, { userId: alice.id, projectId, versionId, tool });
  expect((await runs.submitStepJob(s.id, false)).kind).toBe("queued");
  await env.db.link.update({ where: { id: standIn.id }, data: { revokedAt: new Date(), runnerEnabled: false } });
  return env.db.runJob.findFirstOrThrow({ where: { stepId: s.id } });
}

function sandboxedTools(entry: string): string[] {
  return readdirSync("/proc")
    .filter((p) => /^\d+$/.test(p))
    .filter((p) => {
      try {
        const cmdline = readFileSync(`/proc/${p}/cmdline`, "utf8");
        // A warm sandbox names its tool through process.title (a space, not a NUL, after node).
        return /^\/usr\/bin\/node[\0 ]/.test(cmdline) && cmdline.includes(`/job/${entry}`);
      } catch {
        return false;
      }
    });
}

beforeAll(async () => {
  env = await setupIntegration("linkctl");
  const routes = await linkRoutes();
  server = await serveRoutes(
    routes.map((r) =>
      r.pattern.endsWith("/inputs/[mediaId]")
        ? {
            ...r,
            handler: async (req: Request, ctx: { params: Promise<Record<string, string>> }) => {
              if (inputsGate) {
                gateReached = true;
                await inputsGate;
              }
              return r.handler(req, ctx);
            },
          }
        : r,
    ),
  );
  steps = await import("../../lib/steps");
  links = await import("../../lib/links");
  const { createUser, getDefaultProject } = await import("../../lib/auth/users");
  const { loadBundle } = await import("../../lib/contracts");
  const { publishSkill, scanVersion } = await import("../../lib/registry");
  const { installSkill } = await import("../../lib/installs");
  const { recordTopUp } = await import("../../lib/billing/ledger");
  const agents = await import("../../lib/agents");
  alice = await createUser({ email: "alice-ctl@example.test", name: "Alice", password: null });
  bob = await createUser({ email: "bob-ctl@example.test", name: "Bob", password: null });
  projectId = (await getDefaultProject(alice.id))!.id;
  const bundle = await loadBundle(path.join(ROOT, "scripts/demo/skills/text-tools"));
  if (!bundle.ok) throw new Error("bundle");
  versions["text-tools"] = (
    await publishSkill({ ownerId: alice.id, document: bundle.document, scan: "none" })
  ).versionId;
  await scanVersion(versions["text-tools"]!);
  await installSkill({ userId: alice.id, slug: "text-tools", version: "2.0.1" });
  await publishFixture("spin-kit", SPIN_CODE);
  // Code past the 256 KiB a poll answer carries inline: the Link fetches it, and the gate holds it there.
  const pads = Array.from({ length: 5 }, (_, i) => ({ name: `tools/pad-${i}.js`, text: `// ${"hold ".repeat(12_000)}\n` }));
  const requires = pads.map((p) => `require("./${p.name.slice("tools/".length)}");`).join("\n");
  await publishFixture("hold-kit", `${requires}\n${(await import("../helpers/install-fixtures")).ECHO_CODE}`, pads);
  await recordTopUp({ userId: alice.id, amountMicros: 10_000_000n, paymentId: "ctl", memo: "test" });
  agent = await agents.verifyAgentToken((await agents.createAgent(alice.id, { name: "ctl-bot" })).token);
  aliceHome = await linkHome("ctl-alice");
  bobHome = await linkHome("ctl-bob");
}, 180_000);

afterAll(async () => {
  inputsGate = null;
  await aliceHome?.stop();
  await bobHome?.stop();
  await server?.close();
  await (await import("../../lib/runs")).dispatchQueue().close();
  await (await import("../../lib/registry")).scanQueue().close();
  await (await import("../../lib/events")).closeEvents();
  await env?.teardown();
});

describe("OpenVibe's pool is OpenVibe's", () => {
  it("Bob's --pool Link gets no job of Alice's until an operator approves it; then Alice's run says OpenVibe pool", async () => {
    const { run, linkId } = await pairAndStart(bob, bobHome, "bobs-box", ["--pool"]);
    expect(await env.db.link.findUniqueOrThrow({ where: { id: linkId } })).toMatchObject({
      poolOffer: true,
      poolApprovedAt: null,
    });
    // With no Link of her own, Alice's call finds no machine: Bob's offer does not count.
    const call = await steps.createSkillRunStep(agent, {
      skill: "text-tools@2.0.1",
      tool: "slugify",
      input: { text: "Pool?" },
    });
    expect((await steps.decideStep(alice.id, call.id, "once")).status).toBe("no_node");
    // Even a job already queued is not handed to it, however long it polls past the own-first window.
    const job = await queuedJobNobodyElseTakes(versions["text-tools"]!, "slugify");
    await new Promise((r) => setTimeout(r, 6_000));
    expect(await env.db.runJob.findUniqueOrThrow({ where: { id: job.id } })).toMatchObject({
      state: "queued",
      linkId: null,
    });

    await links.approvePoolLink({ cli: true }, linkId);
    const done = await until("the pool machine to run it", async () => {
      const row = await env.db.runJob.findUniqueOrThrow({ where: { id: job.id } });
      return row.state === "succeeded" ? row : null;
    }).catch((err: Error) => {
      throw new Error(`${err.message}\n${run.output()}`);
    });
    expect(done).toMatchObject({ linkId, placement: "pool" });
    const { getRunForPerson } = await import("../../lib/runs");
    expect((await getRunForPerson(alice.id, job.id)).ran_on).toBe("OpenVibe pool");
    const forAgent = await env.db.step.findUniqueOrThrow({
      where: { id: done.stepId! },
      include: { job: { select: { id: true, placement: true, costMicros: true, link: { select: { name: true } } } } },
    });
    expect(steps.stepForAgent(forAgent)).toMatchObject({
      ran_on: "OpenVibe pool",
      run_id: job.id,
      cost_micros: expect.any(String),
    });
    await links.revokePoolLink({ cli: true }, linkId);
    await bobHome.stopProcesses();
  });
});

describe("the off switch sticks", () => {
  it(
    `skills off while run runs: no job is dispatched to it for ${OFF_WINDOW_MS / 1000} s, and it stays off`,
    async () => {
      // One slot: "a queued job never starts" below means the job behind the running one.
      const started = await pairAndStart(alice, aliceHome, "alices-laptop", ["--jobs", "1"]);
      aliceRun = started.run;
      aliceLinkId = started.linkId;
      expect((await aliceHome.cli(["skills", "off"])).status).toBe(0);
      const epoch = (await aliceHome.state()).runner_epoch;
      const job = await queuedJobNobodyElseTakes(versions["text-tools"]!, "slugify");
      // It must outlive the window (its 120 s TTL would otherwise end it first).
      await env.db.runJob.update({
        where: { id: job.id },
        data: { expiresAt: new Date(Date.now() + OFF_WINDOW_MS + 60_000) },
      });
      const watchUntil = Date.now() + OFF_WINDOW_MS;
      while (Date.now() < watchUntil) {
        const row = await env.db.runJob.findUniqueOrThrow({ where: { id: job.id } });
        expect(row, aliceRun.output()).toMatchObject({ state: "queued", linkId: null, attempts: 0 });
        expect((await env.db.link.findUniqueOrThrow({ where: { id: aliceLinkId } })).runnerEnabled).toBe(false);
        expect(await aliceHome.state()).toMatchObject({ runner: "off", runner_epoch: epoch });
        await new Promise((r) => setTimeout(r, 500));
      }
      // The Link kept reporting all along (it is alive), just never as on.
      const seen = (await env.db.link.findUniqueOrThrow({ where: { id: aliceLinkId } })).lastSeenAt!;
      expect(Date.now() - seen.getTime()).toBeLessThan(15_000);
      expect((await aliceHome.cli(["skills", "on"])).status).toBe(0);
      await until("the job to run once the owner turns the runner on", async () => {
        const row = await env.db.runJob.findUniqueOrThrow({ where: { id: job.id } });
        return row.state === "succeeded";
      });
    },
    OFF_WINDOW_MS + 60_000,
  );

  it("the dashboard turns the runner off remotely; the Link obeys and only its owner turns it on again", async () => {
    await links.turnRunnerOff(alice.id, aliceLinkId);
    await until("the Link to turn its own switch off", async () => (await aliceHome.state()).runner === "off");
    expect(aliceRun.output()).toMatch(/turned off from the dashboard/);
    // Its next reports say off; the server never took a report of "on" after the dashboard's off.
    await new Promise((r) => setTimeout(r, 2_000));
    expect((await env.db.link.findUniqueOrThrow({ where: { id: aliceLinkId } })).runnerEnabled).toBe(false);
    expect((await aliceHome.cli(["skills", "on"])).status).toBe(0);
    expect((await env.db.link.findUniqueOrThrow({ where: { id: aliceLinkId } })).runnerEnabled).toBe(true);
    expect((await aliceHome.state()).runner).toBe("on");
  });
});

describe("what the Link checks before anything runs", () => {
  it("a job of another class or runner version is refused with run.job.unsupported, and nothing runs", async () => {
    expect((await aliceHome.cli(["skills", "off"])).status).toBe(0);
    const odd = await queuedJobNobodyElseTakes(versions["text-tools"]!, "slugify");
    const other = await queuedJobNobodyElseTakes(versions["text-tools"]!, "slugify");
    await env.db.runJob.update({ where: { id: odd.id }, data: { class: "container" } });
    await env.db.runJob.update({ where: { id: other.id }, data: { artifactVersion: "2.0.0" } });
    expect((await aliceHome.cli(["skills", "on"])).status).toBe(0);
    for (const job of [odd, other]) {
      const row = await until("the Link to refuse it", async () => {
        const r = await env.db.runJob.findUniqueOrThrow({ where: { id: job.id }, include: { step: true } });
        return r.state === "failed" ? r : null;
      }).catch((err: Error) => {
        throw new Error(`${err.message}\n${aliceRun.output()}`);
      });
      expect([row.resultStatus, row.startedAt, row.step?.exitStatus]).toEqual(["refused", null, "refused"]);
      expect(row.step?.message).toMatch(/does not run this kind of job/);
      // Nothing ran, nothing is charged.
      expect(await ledgerSum(env, job.id)).toBe(0n);
    }
    expect(aliceRun.output()).toMatch(new RegExp(`${odd.id}: refused \\(run\\.job\\.unsupported\\)`));
  });
});

describe("instant disable", () => {
  it("disabling a skill while its job runs: cancelled at once, the sandbox killed within 2 s, the hold back; a queued job never starts", async () => {
    const installs = await import("../../lib/installs");
    const running = await steps.createSkillRunStep(agent, {
      skill: "spin-kit@1.0.0",
      tool: "go",
      input: { text: "spin" },
    });
    const queued = await steps.createSkillRunStep(agent, {
      skill: "spin-kit@1.0.0",
      tool: "go",
      input: { text: "next" },
    });
    await until(
      "the tool to spin in its sandbox",
      async () => sandboxedTools("tools/echo.js").length > 0,
      30_000,
    ).catch((err: Error) => {
      throw new Error(`${err.message}\n${aliceRun.output()}`);
    });
    const runningJob = await env.db.runJob.findFirstOrThrow({ where: { stepId: running.id } });
    expect(runningJob.state).toBe("running");
    const install = await env.db.install.findFirstOrThrow({
      where: { userId: alice.id, versionId: versions["spin-kit"] },
    });
    const t0 = Date.now();
    await installs.setInstallEnabled({ userId: alice.id, installId: install.id, enabled: false });
    await until("the sandbox to be gone", async () => sandboxedTools("tools/echo.js").length === 0, 5_000);
    const killedInMs = Date.now() - t0;
    expect(killedInMs).toBeLessThan(2_000);
    for (const stepId of [running.id, queued.id]) {
      const job = await env.db.runJob.findFirstOrThrow({ where: { stepId }, include: { step: true } });
      expect([job.state, job.step?.status, job.resultStatus]).toEqual(["cancelled", "cancelled", null]);
      expect(await ledgerSum(env, job.id)).toBe(0n);
    }
    expect((await env.db.runJob.findFirstOrThrow({ where: { stepId: queued.id } })).startedAt).toBeNull();
    await until("the Link to say so", async () => /cancelled \(run\.job\.cancelled\)/.test(aliceRun.output()), 5_000);
    await installs.setInstallEnabled({ userId: alice.id, installId: install.id, enabled: true });
  });

  it("retiring a version while the Link holds its job: the Link refuses it with run.job.revoked", async () => {
    let open!: () => void;
    inputsGate = new Promise<void>((resolve) => (open = resolve));
    const call = await steps.createSkillRunStep(agent, {
      skill: "hold-kit@1.0.0",
      tool: "go",
      input: { text: "held" },
    });
    gateReached = false;
    // Held at its inputs: past the transparency-log check, which a retired version would fail first.
    const job = await until("the Link to hold the job", async () => {
      const row = await env.db.runJob.findFirst({ where: { stepId: call.id } });
      return gateReached && row && row.linkId === aliceLinkId && row.state !== "queued" ? row : null;
    });
    const { retireVersion } = await import("../../lib/registry");
    await retireVersion({ ownerId: alice.id, slug: "hold-kit", version: "1.0.0" });
    await until("the Link to refuse it", async () => /refused \(run\.job\.revoked\)/.test(aliceRun.output())).catch(
      (err: Error) => {
        throw new Error(`${err.message}\n${aliceRun.output()}`);
      },
    );
    inputsGate = null;
    open();
    const row = await env.db.runJob.findUniqueOrThrow({ where: { id: job.id }, include: { step: true } });
    expect([row.state, row.cancelCode, row.resultStatus, row.step?.status]).toEqual([
      "cancelled",
      "run.job.revoked",
      null,
      "cancelled",
    ]);
    expect(await ledgerSum(env, job.id)).toBe(0n);
    expect(aliceRun.output()).not.toMatch(new RegExp(`${job.id}[^\\n]*\\n\\s+ok in`));
  });
});
