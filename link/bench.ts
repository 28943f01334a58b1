// Benchmark: wall time of a trivial tool through the exec path (job folder, cgroup, prlimit →
// bwrap → node with the permission flags, JSON in and out) against bare `node -e 0` with the same
// Node binary, interleaved in one run. Budget: sandbox p50 ≤ 1.5 × bare p50.
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { copyLocalFolder } from "./inputs";
import { EMPTY_ENV } from "./sandbox/bwrap";
import { Sandbox } from "./sandbox/run";

const RUNS = Number(process.argv[2] ?? 40);
const WARMUP = 5;
const BUDGET = 1.5;

function bareNode(node: string): Promise<number> {
  const started = performance.now();
  const child = spawn(node, ["-e", "0"], { stdio: "ignore", env: EMPTY_ENV });
  return new Promise((resolve, reject) => {
    child.on("error", reject);
    child.on("close", () => resolve(performance.now() - started));
  });
}

async function throughExec(sandbox: Sandbox, toolDir: string): Promise<number> {
  const started = performance.now();
  const folder = sandbox.newJobFolder();
  copyLocalFolder(toolDir, folder.files);
  const result = await sandbox.run({ folder, entry: "tool.js", input: Buffer.from('{"n":1}'), net: "deny", limits: { wall_ms: 10_000, mem_bytes: 134_217_728 } });
  const elapsed = performance.now() - started;
  if (result.status !== "ok") throw new Error(`trivial tool did not succeed: ${JSON.stringify(result)}`);
  await sandbox.idle();
  sandbox.removeJobFolder(folder);
  return elapsed;
}

function quantile(values: number[], q: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)]!;
}

const sandbox = await Sandbox.create();
const toolDir = mkdtempSync(path.join(os.tmpdir(), "ov-bench-tool-"));
writeFileSync(path.join(toolDir, "tool.js"), `let s="";process.stdin.on("data",d=>s+=d).on("end",()=>process.stdout.write(JSON.stringify({n:JSON.parse(s).n+1})))`);

const bare: number[] = [];
const exec: number[] = [];
try {
  for (let i = 0; i < WARMUP; i++) {
    await bareNode(sandbox.runtime.node);
    await throughExec(sandbox, toolDir);
  }
  for (let i = 0; i < RUNS; i++) {
    bare.push(await bareNode(sandbox.runtime.node));
    exec.push(await throughExec(sandbox, toolDir));
  }
} finally {
  await sandbox.close();
  rmSync(toolDir, { recursive: true, force: true });
}

const row = (name: string, values: number[]) => ({ name, p50_ms: +quantile(values, 0.5).toFixed(1), p95_ms: +quantile(values, 0.95).toFixed(1) });
const bareRow = row("bare `node -e 0`", bare);
const execRow = row("trivial tool through exec", exec);
const ratio = { p50: +(execRow.p50_ms / bareRow.p50_ms).toFixed(2), p95: +(execRow.p95_ms / bareRow.p95_ms).toFixed(2) };
// Both sides share the machine; a loaded machine stretches the sandbox's extra processes more.
const load = os.loadavg().map((l) => +l.toFixed(2));
console.log(`node ${sandbox.runtime.node} (v${sandbox.runtime.nodeMajor}), memory ${sandbox.cgroups.enforcement}, ${RUNS} runs each, interleaved, load ${load.join(" ")} on ${os.availableParallelism()} cpus`);
console.table([bareRow, execRow]);
console.log(JSON.stringify({ runs: RUNS, load, bare: bareRow, exec: execRow, ratio, budget: BUDGET, within_budget: ratio.p50 <= BUDGET }));
process.exitCode = ratio.p50 <= BUDGET ? 0 : 1;
