// `npm run bench:run`: call-to-result latency of a tool with "always allow" and a local Link, p50/p95,
// minus the sandbox run itself (the job's own wall time, measured by the Link in the same run):
// what the registry and dispatch add. Budget: overhead p50 ≤ 100 ms. Real PostgreSQL, Redis, route
// handlers over HTTP and a real `openvibe-link run` process with its sandbox.
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { createThrowawayDatabase } from "../test/helpers/test-database";
import { serveRoutes } from "../test/helpers/route-server";
import { closeBench, runBench } from "../bench/app-clients";

const ROOT = path.resolve(import.meta.dirname, "..");
const LINK_BIN = path.join(ROOT, "link/bin/openvibe-link.mjs");
const WARMUP = 5;
const RUNS = 40;
const BUDGET_MS = 100;

const pct = (xs: number[], p: number) =>
  [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))]!;

function cli(args: string[], env: NodeJS.ProcessEnv): Promise<number> {
  return new Promise((resolve) =>
    spawn(process.execPath, [LINK_BIN, ...args], { env, stdio: "ignore" }).on("close", (c) => resolve(c ?? 1)),
  );
}

async function main() {
  const database = await createThrowawayDatabase("ov_bench_run");
  const dataDir = await mkdtemp(path.join(tmpdir(), "ov-bench-run-"));
  process.env.DATABASE_URL = database.url;
  process.env.DATA_DIR = dataDir;
  process.env.REDIS_PREFIX = `bench-run:${process.pid}`;
  process.env.LOG_LEVEL = "error";
  process.env.AUTH_SECRET ??= "bench-secret-not-for-anything-else-0000";
  process.env.REDIS_URL ??= "redis://127.0.0.1:6379/0";
  let link: ChildProcess | undefined;
  let server: Awaited<ReturnType<typeof serveRoutes>> | undefined;
  try {
    const { createUser } = await import("../lib/auth/users");
    const { loadBundle } = await import("../lib/contracts");
    const { publishSkill, scanVersion } = await import("../lib/registry");
    const { installSkill, grantAlwaysAllow } = await import("../lib/installs");
    const { recordTopUp } = await import("../lib/billing/ledger");
    const { createAgent } = await import("../lib/agents");
    const { createPairingCode } = await import("../lib/links");
    const { db } = await import("../lib/db");
    const r = (p: string) => import(p);
    server = await serveRoutes([
      { method: "POST", pattern: "/api/link/v1/pair", handler: (await r("../app/api/link/v1/pair/route")).POST },
      {
        method: "POST",
        pattern: "/api/link/v1/heartbeat",
        handler: (await r("../app/api/link/v1/heartbeat/route")).POST,
      },
      { method: "POST", pattern: "/api/link/v1/poll", handler: (await r("../app/api/link/v1/poll/route")).POST },
      {
        method: "POST",
        pattern: "/api/link/v1/jobs/[id]/start",
        handler: (await r("../app/api/link/v1/jobs/[id]/start/route")).POST,
      },
      {
        method: "POST",
        pattern: "/api/link/v1/jobs/[id]/result",
        handler: (await r("../app/api/link/v1/jobs/[id]/result/route")).POST,
      },
      {
        method: "GET",
        pattern: "/api/link/v1/jobs/[id]/inputs/[mediaId]",
        handler: (await r("../app/api/link/v1/jobs/[id]/inputs/[mediaId]/route")).GET,
      },
      { method: "POST", pattern: "/api/v1/steps", handler: (await r("../app/api/v1/steps/route")).POST },
      { method: "GET", pattern: "/api/v1/steps/[id]", handler: (await r("../app/api/v1/steps/[id]/route")).GET },
      // The Link checks a version against the transparency log before its first run.
      ...(await (await import("../test/helpers/tlog-routes")).tlogRoutes()),
    ]);

    const person = await createUser({ email: "bench@example.test", name: "Bench", password: null });
    const bundle = await loadBundle(path.join(ROOT, "scripts/demo/skills/text-tools"));
    if (!bundle.ok) throw new Error("text-tools does not load");
    const published = await publishSkill({ ownerId: person.id, document: bundle.document, scan: "none" });
    await scanVersion(published.versionId);
    await installSkill({ userId: person.id, slug: "text-tools", version: bundle.document.version });
    await grantAlwaysAllow({ userId: person.id, versionId: published.versionId, tool: "word_count" });
    await recordTopUp({ userId: person.id, amountMicros: 100_000_000n, paymentId: "bench", memo: "bench" });
    const token = (await createAgent(person.id, { name: "bench" })).token;

    const linkEnv = {
      PATH: process.env.PATH,
      OPENVIBE_LINK_HOME: path.join(dataDir, "link"),
    } as unknown as NodeJS.ProcessEnv;
    const { code } = await createPairingCode(person.id);
    if ((await cli(["pair", code, "--server", server.url], linkEnv)) !== 0) throw new Error("pairing failed");
    await cli(["skills", "on"], linkEnv);
    link = spawn(process.execPath, [LINK_BIN, "run"], { env: linkEnv, stdio: "ignore" });
    for (
      let i = 0;
      i < 100 && !(await db.link.findFirst({ where: { lastSeenAt: { gt: new Date(Date.now() - 3_000) } } }));
      i++
    ) {
      await new Promise((res) => setTimeout(res, 100));
    }

    const callOnce = async () => {
      const t0 = performance.now();
      const res = await fetch(`${server!.url}/api/v1/steps`, {
        method: "POST",
        headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
        body: JSON.stringify({
          skill: `text-tools@${bundle.document.version}`,
          tool: "word_count",
          input: { text: "one two three" },
        }),
      });
      const step = (await res.json()) as { id: string };
      const done = (await (
        await fetch(`${server!.url}/api/v1/steps/${step.id}?wait=25`, { headers: { authorization: `Bearer ${token}` } })
      ).json()) as {
        status: string;
        wall_ms?: number;
      };
      const total = performance.now() - t0;
      if (done.status !== "succeeded") throw new Error(`a call ended ${done.status}`);
      return { total, sandbox: done.wall_ms ?? 0 };
    };
    for (let i = 0; i < WARMUP; i++) await callOnce();
    const samples = [];
    for (let i = 0; i < RUNS; i++) samples.push(await callOnce());
    const totals = samples.map((s) => s.total);
    const sandbox = samples.map((s) => s.sandbox);
    const overhead = samples.map((s) => s.total - s.sandbox);
    const fmt = (xs: number[]) => `p50 ${pct(xs, 50).toFixed(1)} ms, p95 ${pct(xs, 95).toFixed(1)} ms`;
    console.log(`bench:run — ${RUNS} calls with "always allow", one local Link (after ${WARMUP} warm-up calls)`);
    console.log(`  call → result        ${fmt(totals)}`);
    console.log(`  sandbox run (job)    ${fmt(sandbox)}`);
    console.log(`  registry + dispatch  ${fmt(overhead)}   (budget: p50 ≤ ${BUDGET_MS} ms)`);
    console.log(`  overhead / sandbox   ${(pct(overhead, 50) / Math.max(1, pct(sandbox, 50))).toFixed(2)}× at p50`);
    process.exitCode = pct(overhead, 50) <= BUDGET_MS ? 0 : 1;
    await db.$disconnect();
  } finally {
    if (link && link.exitCode === null) {
      const exited = new Promise((res) => link!.once("exit", res));
      link.kill("SIGTERM");
      await exited;
    }
    await server?.close();
    await closeBench({ database, dataDir });
  }
}

runBench(main);
