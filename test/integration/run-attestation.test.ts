// Signed results end to end against real PostgreSQL and Redis: the server records a result only
// with a Link statement that matches the job and the result and is signed by that Link's key
// (else `run.result.signature_invalid`, nothing recorded); the key and pool-key routes; and the
// real `openvibe verify-run` process on an exported RUN.json: unchanged it passes, one changed
// byte of output, a forged signature, a forged egress record or another Link's key are refused.
import { spawn } from "node:child_process";
import { writeFile } from "node:fs/promises";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { generateLinkKeyPair, keyIdOf, signStatement, type EgressRecord, type RunFile } from "../../lib/protocol";
import { setupIntegration, type IntegrationEnv } from "../helpers/integration";
import { serveRoutes } from "../helpers/route-server";
import { claim, linkFor, ok, pendingStep, signed, type TestLink } from "../helpers/runs";
import { tempDir } from "../helpers/temp-dir";

const ROOT = path.resolve(import.meta.dirname, "../..");
const DEMO = path.resolve(ROOT, "scripts/demo/skills");
let env: IntegrationEnv;
let runs: typeof import("../../lib/runs");
let server: Awaited<ReturnType<typeof serveRoutes>>;
let person: { id: string };
let projectId: string;
let versionId: string;
let link: TestLink;

const EGRESS: EgressRecord = [
  {
    host: "api.openvibe.services",
    port: 443,
    address: "127.0.0.1",
    verdict: "allowed",
    reason: null,
    count: 1,
    bytes_up: 2100,
    bytes_down: 14_000,
    duration_ms: 40,
  },
  {
    host: "evil.example",
    port: 443,
    address: null,
    verdict: "denied",
    reason: "link.egress.host",
    count: 2,
    bytes_up: 0,
    bytes_down: 0,
    duration_ms: 0,
  },
];

async function placedJob(on: TestLink = link) {
  const s = await pendingStep(env, { userId: person.id, projectId, versionId });
  expect((await runs.submitStepJob(s.id, false)).kind).toBe("queued");
  const claimed = (await claim(on)).job;
  if (!claimed) throw new Error("nothing claimed");
  await runs.startJob(on, claimed.id);
  return claimed.id;
}

function cli(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [path.join(ROOT, "bin/openvibe.mjs"), ...args], {
      env: { PATH: process.env.PATH, OPENVIBE_SERVER: server.url } as unknown as NodeJS.ProcessEnv,
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d) => (stdout += d));
    child.stderr.on("data", (d) => (stderr += d));
    child.on("close", (code) => resolve({ code: code ?? -1, stdout, stderr }));
  });
}

beforeAll(async () => {
  env = await setupIntegration("attest");
  runs = await import("../../lib/runs");
  const { createUser, getDefaultProject } = await import("../../lib/auth/users");
  const { publishSkill, scanVersion } = await import("../../lib/registry");
  const { loadBundle } = await import("../../lib/contracts");
  const { installSkill } = await import("../../lib/installs");
  const { recordTopUp } = await import("../../lib/billing/ledger");
  person = await createUser({ email: "attest@example.test", name: "Attest", password: null });
  projectId = (await getDefaultProject(person.id))!.id;
  const bundle = await loadBundle(path.join(DEMO, "text-tools"));
  if (!bundle.ok) throw new Error("bundle");
  versionId = (await publishSkill({ ownerId: person.id, document: bundle.document, scan: "none" })).versionId;
  expect((await scanVersion(versionId)).status).toBe("passed");
  await installSkill({ userId: person.id, slug: "text-tools", version: bundle.document.version });
  await recordTopUp({ userId: person.id, amountMicros: 10_000_000n, paymentId: "seed-attest", memo: "test" });
  link = await linkFor(env, person.id, { name: "laptop" });
  const r = (p: string) =>
    import(p) as Promise<{
      GET: (req: Request, ctx: { params: Promise<Record<string, string>> }) => Promise<Response>;
    }>;
  server = await serveRoutes([
    {
      method: "GET",
      pattern: "/api/v1/links/[id]/key",
      handler: (await r("../../app/api/v1/links/[id]/key/route")).GET,
    },
    { method: "GET", pattern: "/api/v1/pool/keys", handler: (await r("../../app/api/v1/pool/keys/route")).GET },
  ]);
}, 120_000);

afterAll(async () => {
  await server?.close();
  await runs.dispatchQueue().close();
  await (await import("../../lib/registry")).scanQueue().close();
  await (await import("../../lib/events")).closeEvents();
  await env?.teardown();
});

describe("the server records only results its Link signed", () => {
  it("stores the statement, the signature and the key id with the run; the run view and the agent's result carry them", async () => {
    const jobId = await placedJob();
    const body = await signed(link, jobId, { ...ok({ slug: "hello-world" }), egress: EGRESS });
    expect(await runs.recordResult(link, jobId, body)).toMatchObject({ recorded: true, state: "succeeded" });
    const view = await runs.getRunForPerson(person.id, jobId);
    const row = await env.db.link.findUniqueOrThrow({ where: { id: link.linkId } });
    expect(view.attestation).toEqual({ ...body.attestation, key_id: keyIdOf(row.publicKey) });
    expect(view.egress).toEqual(EGRESS);
    const job = await env.db.runJob.findUniqueOrThrow({ where: { id: jobId }, include: { step: true } });
    const { stepForAgent } = await import("../../lib/steps");
    expect(stepForAgent({ ...job.step!, job: { ...job, link: null } })).toMatchObject({
      attestation: { signature: body.attestation.signature },
    });
  });

  it.each([
    [
      "a forged signature",
      (b: Awaited<ReturnType<typeof signed>>) => ({
        ...b,
        attestation: signStatement(b.attestation.statement, generateLinkKeyPair().privateKeyPem),
      }),
    ],
    [
      "an output changed after signing",
      (b: Awaited<ReturnType<typeof signed>>) => ({ ...b, output: { slug: "hello-worle" } }),
    ],
    [
      "a forged egress record",
      (b: Awaited<ReturnType<typeof signed>>) => ({
        ...b,
        attestation: { ...b.attestation, statement: { ...b.attestation.statement, egress: [] } },
      }),
    ],
    [
      "a statement about another job",
      (b: Awaited<ReturnType<typeof signed>>) => ({
        ...b,
        attestation: signStatement(
          { ...b.attestation.statement, job_id: "job_01jc000000000000000000000z" },
          link.privateKeyPem,
        ),
      }),
    ],
    [
      "a statement of other code",
      (b: Awaited<ReturnType<typeof signed>>) => ({
        ...b,
        attestation: signStatement(
          { ...b.attestation.statement, integrity: `sha256:${"e".repeat(64)}` },
          link.privateKeyPem,
        ),
      }),
    ],
  ])("refuses %s with run.result.signature_invalid and records nothing", async (_what, forge) => {
    const jobId = await placedJob();
    const body = await signed(link, jobId, { ...ok({ slug: "hello-world" }), egress: EGRESS });
    await expect(runs.recordResult(link, jobId, forge(body))).rejects.toMatchObject({
      code: "run.result.signature_invalid",
    });
    const job = await env.db.runJob.findUniqueOrThrow({ where: { id: jobId } });
    expect([job.state, job.resultStatus, job.attestation]).toEqual(["running", null, null]);
    // The genuine result is still taken afterwards.
    expect(await runs.recordResult(link, jobId, body)).toMatchObject({ recorded: true });
  });
});

describe("Link keys", () => {
  it("serves any Link's public key by id, without sign-in, and 404 for an unknown one", async () => {
    const res = await fetch(`${server.url}/api/v1/links/${link.linkId}/key`);
    expect(res.status).toBe(200);
    const row = await env.db.link.findUniqueOrThrow({ where: { id: link.linkId } });
    expect(await res.json()).toEqual({
      link_id: link.linkId,
      algorithm: "Ed25519",
      key_id: keyIdOf(row.publicKey),
      public_key: row.publicKey,
      pool: false,
      revoked_at: null,
    });
    const missing = await fetch(`${server.url}/api/v1/links/abcdefghijklmnopqrstuvwxy/key`);
    expect([missing.status, ((await missing.json()) as { error: { code: string } }).error.code]).toEqual([
      404,
      "link.not_found",
    ]);
    expect((await fetch(`${server.url}/api/v1/links/..%2F..%2Fx/key`)).status).toBe(404);
  });

  it("lists the keys of operator-approved pool Links only", async () => {
    const approved = await linkFor(env, person.id, { pool: true, approved: true });
    const offered = await linkFor(env, person.id, { pool: true });
    const { keys } = (await (await fetch(`${server.url}/api/v1/pool/keys`)).json()) as {
      keys: { link_id: string; pool: boolean }[];
    };
    expect(keys.map((k) => k.link_id)).toContain(approved.linkId);
    expect(keys.map((k) => k.link_id)).not.toContain(offered.linkId);
    expect(keys.every((k) => k.pool)).toBe(true);
    await env.db.link.updateMany({
      where: { id: { in: [approved.linkId, offered.linkId] } },
      data: { revokedAt: new Date() },
    });
  });
});

describe("openvibe verify-run RUN.json", () => {
  let exported: RunFile;
  let dir: string;
  const write = async (name: string, run: unknown) => {
    const file = path.join(dir, name);
    await writeFile(file, JSON.stringify(run, null, 2));
    return file;
  };

  beforeAll(async () => {
    dir = await tempDir("verify-run");
    const jobId = await placedJob();
    await runs.recordResult(
      link,
      jobId,
      await signed(link, jobId, { ...ok({ slug: "hello-world", n: [1, 2.5] }), stderr: "warn\n", egress: EGRESS }),
    );
    exported = await runs.exportRun(person.id, jobId);
  });

  it("passes an unchanged export and shows what the tool talked to", async () => {
    const run = await cli(["verify-run", await write("RUN.json", exported)]);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toMatch(/✓ signature/);
    expect(run.stdout).toContain("api.openvibe.services:443, 2.1 KB up, 14.0 KB down");
    expect(run.stdout).toContain("evil.example:443 ×2, blocked (link.egress.host)");
  });

  it("refuses one changed byte of output", async () => {
    const text = JSON.stringify(exported).replace("hello-world", "hello-worle");
    const run = await cli(["verify-run", await write("byte.json", JSON.parse(text))]);
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/✗ output .*the Link signed/);
  });

  it("refuses a forged signature", async () => {
    const forged = signStatement(exported.attestation.statement, generateLinkKeyPair().privateKeyPem);
    const run = await cli([
      "verify-run",
      await write("sig.json", { ...exported, attestation: { ...exported.attestation, signature: forged.signature } }),
    ]);
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/✗ signature/);
  });

  it("refuses a forged egress record", async () => {
    const statement = { ...exported.attestation.statement, egress: EGRESS.filter((e) => e.verdict === "allowed") };
    const run = await cli([
      "verify-run",
      await write("egress.json", { ...exported, attestation: { ...exported.attestation, statement } }),
    ]);
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/✗ signature/);
  });

  it("refuses a statement re-signed by another key that claims to be this Link", async () => {
    const other = generateLinkKeyPair();
    const resigned = signStatement(exported.attestation.statement, other.privateKeyPem);
    const run = await cli([
      "verify-run",
      await write("key.json", { ...exported, attestation: { ...resigned, key_id: keyIdOf(other.publicKey) } }),
    ]);
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/✗ key .*publishes/);
  });

  it("says what is wrong with a file that is not a RUN.json", async () => {
    const run = await cli(["verify-run", await write("junk.json", { format: "openvibe-run/v1" })]);
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/not a RUN\.json/);
  });
});
