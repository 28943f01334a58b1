// `npm run bench:load`: 100 simulated agents, each with "always allow", calling a trivial tool
// (text-tools word_count) through the REST API for a bounded time, then as many other agents through
// MCP (the official SDK client over Streamable HTTP), against `npm start` (./start-fixture.ts: the
// production build, web server and worker host) with two real Links (`openvibe-link run --jobs 2`).
// First the 100 agents' first calls, all at once: p95 of their acceptance (budget ≤ 100 ms), and
// after both legs another 100 new agents' the same way, shown beside it (the server warm). Then
// prints calls/s, call → result p50/p95/p99, errors, and a ledger check (charges equal finished
// runs; every balance column equals its ledger). Then the baseline, in the same run: as many trivial
// runs straight through the Link's sandbox runner, as many at a time as the Links have slots, and
// the load's throughput as a ratio to it. Budget: 0 errors, charges exact, throughput ≥ 70 % of the
// sandbox alone. The agents, REST and MCP, run in processes of their own (./call-client.mjs,
// ./mcp-client.mjs), as real agents do. `-- --agents N --seconds S --jobs J` change the load (each leg's).
import { fork } from "node:child_process";
import path from "node:path";
import { copyLocalFolder } from "../link/local-folder";
import { Sandbox } from "../link/sandbox/run";
import { runBench } from "./app-clients";
import { callCpuGroups, cpuReading, perCall, withDescendants, type CpuGroups, type ProcessCpu } from "./process-cpu";
import { pct, TEXT_TOOLS } from "./run-fixture";
import { startSiteFixture } from "./start-fixture";

const argAfter = (flag: string, fallback: number) => {
  const i = process.argv.indexOf(flag);
  return i >= 0 ? Number(process.argv[i + 1]) : fallback;
};
const AGENTS = argAfter("--agents", 100);
const SECONDS = argAfter("--seconds", 30);
const LINKS = 2;
const JOBS = argAfter("--jobs", 2);
const SLOTS = LINKS * JOBS;
const THROUGHPUT_BUDGET = 0.7;
const FIRST_CALLS_BUDGET_MS = 100;
const INPUT = { text: "one two three" };
/** word_count of text-tools as MCP names it (lib/mcp/tool-names.ts). */
const MCP_TOOL = "text-tools__word_count";
const verdict = (ok: boolean) => (ok ? "holds" : "misses");

/** Runs `count` word_count jobs through the Links' warm sandboxes, `SLOTS` side by side; runs a second. */
async function sandboxAlone(count: number, limits: { wall_ms: number; mem_bytes: number }): Promise<number> {
  const job = { net: "deny" as const, limits };
  const sandboxes = await Promise.all(
    Array.from({ length: LINKS }, () => Sandbox.create({ warm: true, warmDepth: JOBS })),
  );
  await Promise.all(sandboxes.map((s) => s.warmUp(job)));
  let left = count;
  const started = performance.now();
  await Promise.all(
    sandboxes
      .flatMap((sandbox) => Array.from({ length: JOBS }, () => sandbox))
      .map(async (sandbox) => {
        while (left > 0) {
          left--;
          const folder = sandbox.newJobFolder(job);
          copyLocalFolder(TEXT_TOOLS, folder.files);
          const result = await sandbox.run({
            folder,
            entry: "tools/word-count.js",
            input: Buffer.from(JSON.stringify(INPUT)),
            ...job,
          });
          sandbox.removeJobFolder(folder);
          if (result.status !== "ok") throw new Error(`a sandbox-alone run ended ${result.status}`);
        }
      }),
  );
  const seconds = (performance.now() - started) / 1000;
  await Promise.all(sandboxes.map((s) => s.close()));
  return count / seconds;
}

/** Waits until none of the person's runs is still queued, placed or running. */
async function untilSettled(personId: string) {
  const { db } = await import("../lib/db");
  const open = () => db.runJob.count({ where: { userId: personId, state: { in: ["queued", "placed", "running"] } } });
  while ((await open()) > 0) await new Promise((res) => setTimeout(res, 100));
}

/** Where a leg's CPU went: the site's processes, the Links (and their sandboxes still running), the agents, the stores. */
function cpuGroups(): CpuGroups {
  const running = (mark: string) => (all: ProcessCpu[]) =>
    withDescendants(all, [process.pid]).filter((p) => p.cmdline.includes(mark));
  return callCpuGroups({ web: running("web-server.mjs"), workers: running("workers/index.ts") });
}

type Leg = {
  name: string;
  latencies: number[];
  errors: Map<string, number>;
  seconds: number;
  /** CPU per succeeded call, by group. */
  cpu: string;
};

/** Every agent calls, one call at a time, until SECONDS are up; a call's answer is its final status. */
async function drive(name: string, agents: ((text: string) => Promise<string>)[]): Promise<Leg> {
  const latencies: number[] = [];
  const errors = new Map<string, number>();
  const groups = cpuGroups();
  const before = cpuReading(groups);
  const started = performance.now();
  const until = started + SECONDS * 1000;
  await Promise.all(
    agents.map(async (call) => {
      while (performance.now() < until) {
        const t0 = performance.now();
        const status = await call(INPUT.text).catch((e: unknown) => String(e));
        if (status === "succeeded") latencies.push(performance.now() - t0);
        else errors.set(status, (errors.get(status) ?? 0) + 1);
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  return { name, latencies, errors, seconds, cpu: perCall(before, cpuReading(groups), latencies.length) };
}

/** The MCP agents (./mcp-client.mjs, the official SDK over Streamable HTTP), in a process of their own. */
function mcpAgents() {
  const child = fork(path.join(import.meta.dirname, "mcp-client.mjs"), { stdio: "inherit" });
  const waiting = new Map<number, (answer: { status?: string; error?: string }) => void>();
  child.on("message", (answer: { id: number; status?: string; error?: string }) => {
    waiting.get(answer.id)?.(answer);
    waiting.delete(answer.id);
  });
  let asked = 0;
  const ask = (message: object) =>
    new Promise<{ status?: string }>((resolve, reject) => {
      const id = ++asked;
      waiting.set(id, (answer) => (answer.error ? reject(new Error(answer.error)) : resolve(answer)));
      child.send({ id, ...message });
    });
  return {
    connect: (url: string, tokens: string[]) => ask({ connect: { url, tokens } }),
    call: async (agent: number, text: string) =>
      (await ask({ call: { agent, name: MCP_TOOL, arguments: { text } } })).status ?? "no status",
    close: async () => {
      await ask({ close: true }).catch(() => undefined);
      if (child.connected) child.disconnect();
    },
  };
}

async function main() {
  const fixture = await startSiteFixture({ name: "load", links: LINKS, jobs: JOBS });
  const mcpClients: { close: () => Promise<void> }[] = [];
  try {
    const { db } = await import("../lib/db");
    const { ledgerDifferences } = await import("../lib/billing/ledger-check");
    const tokens: string[] = [];
    for (let i = 0; i < AGENTS; i++) tokens.push(await fixture.agentToken(`load-${i}`));
    // one call first, so the Links' first check of the version is not in the measurement
    const first = await fixture.call(tokens[0]!, INPUT.text);
    if (first.status !== "succeeded") throw new Error(`the first call ended ${first.status}`);

    // Every agent's first call at once, each on a new connection, with the Links taking the jobs.
    const groups = cpuGroups();
    const burstBefore = cpuReading(groups);
    const accepted = await fixture.firstCalls(tokens, INPUT.text);
    const burstCpu = perCall(burstBefore, cpuReading(groups), tokens.length);
    await untilSettled(fixture.personId);

    const rest = await drive(
      "REST API",
      tokens.map((token) => (text) => fixture.call(token, text).then((done) => done.status)),
    );
    // The same number of other agents, each an MCP client with a session of its own.
    const mcpTokens: string[] = [];
    for (let i = 0; i < AGENTS; i++) mcpTokens.push(await fixture.agentToken(`load-mcp-${i}`));
    const agents = mcpAgents();
    mcpClients.push(agents);
    await agents.connect(fixture.mcpUrl ?? fixture.url, mcpTokens);
    const mcp = await drive(
      "MCP",
      mcpTokens.map((_, i) => (text) => agents.call(i, text)),
    );

    // The same burst once more, 100 new agents against the server now warm (shown, no budget): the
    // judged burst is the first one, when the acceptance path has run once and is not yet optimized.
    const againTokens: string[] = [];
    for (let i = 0; i < AGENTS; i++) againTokens.push(await fixture.agentToken(`load-again-${i}`));
    const again = await fixture.firstCalls(againTokens, INPUT.text);
    await untilSettled(fixture.personId);

    const finished = await db.runJob.count({
      where: { userId: fixture.personId, state: { in: ["succeeded", "failed"] } },
    });
    const charged = await db.ledgerEntry.groupBy({
      by: ["jobId"],
      where: { userId: fixture.personId, kind: "charge", jobId: { not: null } },
    });
    const differences = await ledgerDifferences();
    const chargesExact = charged.length === finished && differences.length === 0;
    const job = await db.runJob.findFirstOrThrow({ where: { userId: fixture.personId } });
    const limits = { wall_ms: job.wallMs, mem_bytes: Number(job.memBytes) };

    const alone = await sandboxAlone(Math.max(50, rest.latencies.length), limits);
    console.log(
      `bench:load — npm start; ${AGENTS} agents with "always allow", ${SECONDS} s through the REST API, then ${AGENTS} more through MCP; ${LINKS} Links with --jobs ${JOBS}`,
    );
    const firstP95 = pct(accepted, 95);
    let holds = chargesExact && firstP95 <= FIRST_CALLS_BUDGET_MS;
    console.log(
      `  first calls    ${AGENTS} at once: accepted p50 ${pct(accepted, 50).toFixed(0)} ms, p95 ${firstP95.toFixed(0)} ms (budget p95 ≤ ${FIRST_CALLS_BUDGET_MS} ms) — ${verdict(firstP95 <= FIRST_CALLS_BUDGET_MS)}`,
    );
    console.log(`                 CPU a call while they were accepted: ${burstCpu}`);
    console.log(
      `                 ${AGENTS} more at once after both legs, the server warm (shown, no budget): p50 ${pct(again, 50).toFixed(0)} ms, p95 ${pct(again, 95).toFixed(0)} ms`,
    );
    for (const leg of [rest, mcp]) {
      const perSecond = leg.latencies.length / leg.seconds;
      const ratio = perSecond / alone;
      const errorCount = [...leg.errors.values()].reduce((a, b) => a + b, 0);
      const fmt = (p: number) => `${pct(leg.latencies, p).toFixed(0)} ms`;
      holds &&= errorCount === 0 && ratio >= THROUGHPUT_BUDGET;
      console.log(`  ${leg.name}`);
      console.log(
        `    calls          ${leg.latencies.length} succeeded in ${leg.seconds.toFixed(1)} s: ${perSecond.toFixed(1)} calls/s`,
      );
      console.log(`    call → result  p50 ${fmt(50)}, p95 ${fmt(95)}, p99 ${fmt(99)}`);
      console.log(`    CPU a call     ${leg.cpu}`);
      console.log(
        `    errors         ${errorCount}${errorCount ? ` (${[...leg.errors].map(([k, n]) => `${k}: ${n}`).join(", ")})` : ""} — ${verdict(errorCount === 0)}`,
      );
      console.log(
        `    throughput     ${(ratio * 100).toFixed(0)} % of the sandbox alone (budget ≥ ${THROUGHPUT_BUDGET * 100} %) — ${verdict(ratio >= THROUGHPUT_BUDGET)}`,
      );
    }
    console.log(
      `  ledger         ${charged.length} runs charged, ${finished} runs finished; ${differences.length} balance columns off their ledger — ${verdict(chargesExact)}`,
    );
    console.log(`  sandbox alone  ${alone.toFixed(1)} runs/s (${SLOTS} side by side, the same trivial tool)`);
    process.exitCode = holds ? 0 : 1;
  } finally {
    await Promise.allSettled(mcpClients.map((c) => c.close()));
    await fixture.stop();
  }
}

runBench(main);
