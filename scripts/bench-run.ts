// `npm run bench:run`: call-to-result latency of a tool with "always allow" and a local Link, p50/p95,
// minus the sandbox run itself (the job's own wall time, measured by the Link in the same run):
// what the registry and dispatch add. Budget (issue 17): overhead p50 ≤ 25 ms, p95 ≤ 60 ms. Real PostgreSQL, Redis, route
// handlers over HTTP and a real `openvibe-link run` process with its sandbox.
import { runBench } from "../bench/app-clients";
import { pct, startRunFixture } from "../bench/run-fixture";

const WARMUP = 5;
const RUNS = 40;
const BUDGET_P50_MS = 25;
const BUDGET_P95_MS = 60;

async function main() {
  const fixture = await startRunFixture({ name: "run", links: 1 });
  try {
    const token = await fixture.agentToken("bench");
    const callOnce = async () => {
      // Timed by the agent, in its own process: from its request to the answer with the result.
      const done = await fixture.call(token, "one two three");
      if (done.status !== "succeeded") throw new Error(`a call ended ${done.status}`);
      return { total: done.ms, sandbox: done.wall_ms ?? 0 };
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
    const holds = pct(overhead, 50) <= BUDGET_P50_MS && pct(overhead, 95) <= BUDGET_P95_MS;
    console.log(
      `  registry + dispatch  ${fmt(overhead)}   (budget: p50 ≤ ${BUDGET_P50_MS} ms, p95 ≤ ${BUDGET_P95_MS} ms) — ${holds ? "holds" : "misses"}`,
    );
    console.log(`  overhead / sandbox   ${(pct(overhead, 50) / Math.max(1, pct(sandbox, 50))).toFixed(2)}× at p50`);
    process.exitCode = holds ? 0 : 1;
  } finally {
    await fixture.stop();
  }
}

runBench(main);
