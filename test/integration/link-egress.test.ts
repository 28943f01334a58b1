// What the issue judges, with a real `openvibe-link` process: a `net: public` tool that fetches
// from an allowed host (api.openvibe.services, mapped by the Link's owner to a local server) and
// tries one the proxy refuses (localhost: not a public address). The signed egress record shows the allowed host with its bytes and the other as
// blocked, on the run, in the audit and its CSV; the exported RUN.json passes `openvibe verify-run`.
import { spawn } from "node:child_process";
import http from "node:http";
import { writeFile } from "node:fs/promises";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { setupIntegration, type IntegrationEnv } from "../helpers/integration";
import { linkHome, linkRoutes, until, type LinkHome } from "../helpers/link-process";
import { serveRoutes } from "../helpers/route-server";
import { tempDir } from "../helpers/temp-dir";

const ROOT = path.resolve(import.meta.dirname, "../..");
const STATUS = JSON.stringify({ status: "operational", note: "x".repeat(3000) });
const FETCH_CODE = `"use strict";
let raw = "";
process.stdin.on("data", (c) => (raw += c));
process.stdin.on("end", async () => {
  const status = await fetch("http://api.openvibe.services/v1/status").then((r) => r.json());
  const blocked = await fetch("http://localhost/admin").then((r) => r.status, () => "refused");
  process.stdout.write(JSON.stringify({ status: status.status, blocked }));
});
`;
let env: IntegrationEnv;
let server: Awaited<ReturnType<typeof serveRoutes>>;
let upstream: http.Server;
let home: LinkHome;
let agentToken: string;
let person: { id: string };
let link: ReturnType<LinkHome["start"]>;

beforeAll(async () => {
  env = await setupIntegration("linkegress");
  upstream = http.createServer((req, res) => {
    req.resume();
    req.on("end", () => res.writeHead(200, { "content-type": "application/json" }).end(STATUS));
  });
  await new Promise<void>((resolve) => upstream.listen(0, "127.0.0.1", () => resolve()));
  const port = (upstream.address() as { port: number }).port;
  home = await linkHome("linkegress");
  home.env.OPENVIBE_LINK_HOSTS = `api.openvibe.services=127.0.0.1:${port}`;
  server = await serveRoutes(await linkRoutes());
  const { createUser } = await import("../../lib/auth/users");
  const { validateSkillDocument } = await import("../../lib/contracts");
  const { publishSkill, scanVersion } = await import("../../lib/registry");
  const { installSkill } = await import("../../lib/installs");
  const { sandboxSkill } = await import("../helpers/install-fixtures");
  const { recordTopUp } = await import("../../lib/billing/ledger");
  const { createAgent } = await import("../../lib/agents");
  const { createPairingCode } = await import("../../lib/links");
  person = await createUser({ email: "egress@example.test", name: "Egress", password: null });
  const doc = validateSkillDocument(
    sandboxSkill({
      slug: "status-probe",
      version: "1.0.0",
      tools: [{ name: "probe", net: "public" }],
      code: FETCH_CODE,
    }),
  );
  if (!doc.ok) throw new Error(JSON.stringify(doc.errors));
  const { versionId } = await publishSkill({ ownerId: person.id, document: doc.document, scan: "none" });
  const scanned = await scanVersion(versionId);
  const row = await env.db.listing.findFirst({ where: { versionId }, select: { findingsHash: true } });
  await installSkill({
    userId: person.id,
    slug: "status-probe",
    version: "1.0.0",
    ...(scanned.status === "passed" ? {} : { findingsAck: row?.findingsHash ?? undefined }),
  });
  await recordTopUp({ userId: person.id, amountMicros: 5_000_000n, paymentId: "egress", memo: "test" });
  agentToken = (await createAgent(person.id, { name: "egress-bot" })).token;
  const { code } = await createPairingCode(person.id);
  expect((await home.cli(["pair", code, "--server", server.url, "--name", "egress-laptop"])).status).toBe(0);
  expect((await home.cli(["skills", "on"])).status).toBe(0);
  link = home.start();
  await until(
    "the Link to poll",
    async () =>
      (await env.db.link.findFirst({
        where: { userId: person.id, lastSeenAt: { gt: new Date(Date.now() - 5_000) } },
      })) !== null,
  ).catch((err: Error) => {
    throw new Error(`${err.message}\n${link.output()}`);
  });
}, 180_000);

afterAll(async () => {
  await home?.stop();
  await server?.close();
  upstream?.close();
  await (await import("../../lib/runs")).dispatchQueue().close();
  await (await import("../../lib/registry")).scanQueue().close();
  await (await import("../../lib/events")).closeEvents();
  await env?.teardown();
});

describe("a tool's network, as its Link signed it", () => {
  it("shows the allowed host with its bytes and the blocked one as blocked: run, audit, CSV, verify-run", async () => {
    const steps = await import("../../lib/steps");
    const res = await fetch(`${server.url}/api/v1/steps`, {
      method: "POST",
      headers: { authorization: `Bearer ${agentToken}`, "content-type": "application/json" },
      body: JSON.stringify({ skill: "status-probe@1.0.0", tool: "probe", input: { text: "secret notes" } }),
    });
    const created = (await res.json()) as { id: string };
    expect(res.status, JSON.stringify(created)).toBe(201);
    await steps.decideStep(person.id, created.id, "once");
    const done = (await (
      await fetch(`${server.url}/api/v1/steps/${created.id}?wait=25`, {
        headers: { authorization: `Bearer ${agentToken}` },
      })
    ).json()) as {
      status: string;
      result?: { data: unknown };
    };
    expect(done.status, link.output()).toBe("succeeded");
    expect(done.result?.data).toEqual({ status: "operational", blocked: "refused" });

    const job = await env.db.runJob.findFirstOrThrow({ where: { stepId: created.id } });
    const runs = await import("../../lib/runs");
    const view = await runs.getRunForPerson(person.id, job.id);
    expect(view.egress).toEqual([
      expect.objectContaining({
        host: "api.openvibe.services",
        port: 80,
        address: "127.0.0.1",
        verdict: "allowed",
        count: 1,
      }),
      expect.objectContaining({
        host: "localhost",
        port: 80,
        address: null,
        verdict: "denied",
        reason: "link.egress.private",
        bytes_up: 0,
      }),
    ]);
    expect(view.egress![0]!.bytes_down).toBeGreaterThanOrEqual(STATUS.length);

    const { auditCsv, auditHosts } = await import("../../lib/installs");
    const csv = await new Response(auditCsv({ userId: person.id, days: 1 }).stream).text();
    expect(csv).toContain(",api.openvibe.services:80; localhost:80 (blocked)\r\n");
    expect((await auditHosts({ userId: person.id, days: 1 })).map((h) => [h.slug, h.host, h.verdict])).toEqual([
      ["status-probe", "api.openvibe.services", "allowed"],
      ["status-probe", "localhost", "denied"],
    ]);

    // The exported attestation checks out with the real CLI (which asks only for the Link's key).
    const keyRoute = await import("../../app/api/v1/links/[id]/key/route");
    const keys = await serveRoutes([{ method: "GET", pattern: "/api/v1/links/[id]/key", handler: keyRoute.GET }]);
    try {
      const file = path.join(tempDir("egress-run"), "RUN.json");
      await writeFile(file, JSON.stringify(await runs.exportRun(person.id, job.id)));
      const out = await new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
        const child = spawn(
          process.execPath,
          [path.join(ROOT, "bin/openvibe.mjs"), "verify-run", file, "--server", keys.url],
          {
            env: { PATH: process.env.PATH } as unknown as NodeJS.ProcessEnv,
          },
        );
        let stdout = "";
        let stderr = "";
        child.stdout.on("data", (d) => (stdout += d));
        child.stderr.on("data", (d) => (stderr += d));
        child.on("close", (code) => resolve({ code, stdout, stderr }));
      });
      expect(out.code, out.stderr).toBe(0);
      expect(out.stdout).toMatch(/Network: api\.openvibe\.services:80, [\d.]+ [KM]?B up, [\d.]+ KB down/);
      expect(out.stdout).toContain("Network: localhost:80, blocked (link.egress.private)");
    } finally {
      await keys.close();
    }
  });
});
