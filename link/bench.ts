// Benchmark: a trivial tool through the Link's sandbox against bare `node -e 0` with the same Node
// binary, interleaved in one run.
//   cold: the exec path (job folder, cgroup, prlimit → bwrap → node with the permission flags,
//         JSON in and out). Budget: p50 ≤ 1.5 × bare p50.
//   warm: job bytes in → result out with a sandbox booted before the job (the job's files written
//         into its /job, its entry loaded, its value back). Budget: p50 ≤ 0.5 × bare p50.
// Also the memory an idle warm sandbox holds (its Node's RSS), budget ≈ 40 MB, and (shown, no budget)
// the same trivial tool run by a bare Node outside any sandbox, without and with the one V8 flag every
// sandboxed Node keeps (it costs Node its built-in code cache): what is left is the sandbox's own.
import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { copyLocalFolder } from "./local-folder";
import { EMPTY_ENV, NO_CODE_FROM_STRINGS } from "./sandbox/bwrap";
import { Sandbox, type JobFolder } from "./sandbox/run";

const RUNS = Number(process.argv[2] ?? 40);
const WARMUP = 5;
const COLD_BUDGET = 1.5;
const WARM_BUDGET = 0.5;
const IDLE_RSS_BUDGET_MB = 40;
const LIMITS = { wall_ms: 10_000, mem_bytes: 134_217_728 };
const JOB = { net: "deny" as const, limits: LIMITS };

function bareNode(node: string, args = ["-e", "0"], input?: string): Promise<number> {
  const started = performance.now();
  const child = spawn(node, args, {
    stdio: [input === undefined ? "ignore" : "pipe", "ignore", "ignore"],
    env: EMPTY_ENV,
  });
  child.stdin?.end(input);
  return new Promise((resolve, reject) => {
    child.on("error", reject);
    child.on("close", () => resolve(performance.now() - started));
  });
}

async function timeJob(sandbox: Sandbox, toolDir: string, folderFor: () => JobFolder): Promise<number> {
  const started = performance.now();
  const folder = folderFor();
  copyLocalFolder(toolDir, folder.files);
  const result = await sandbox.run({ folder, entry: "tool.js", input: Buffer.from('{"n":1}'), ...JOB });
  const elapsed = performance.now() - started;
  if (result.status !== "ok") throw new Error(`trivial tool did not succeed: ${JSON.stringify(result)}`);
  sandbox.removeJobFolder(folder);
  // Nothing of the last job's teardown, or of the next warm boot, overlaps the next measurement.
  await sandbox.idle();
  await sandbox.warmUp();
  return elapsed;
}

/** The machine's busy CPU time so far in ms, every core and process (first line of /proc/stat, in 10 ms ticks). */
function machineBusyMs(): number {
  const [user, nice, system, , , irq, softirq, steal] = readFileSync("/proc/stat", "utf8")
    .split("\n")[0]!
    .trim()
    .split(/\s+/)
    .slice(1)
    .map(Number);
  return [user, nice, system, irq, softirq, steal].reduce((sum: number, t) => sum + (t ?? 0), 0) * 10;
}

/** Machine CPU per measured run, by kind: what a run costs the whole machine, not only its wait. */
const machineCpu = { bare: 0, cold: 0, warm: 0 };
async function costing<T>(kind: keyof typeof machineCpu, run: () => Promise<T>): Promise<T> {
  const before = machineBusyMs();
  const value = await run();
  machineCpu[kind] += machineBusyMs() - before;
  return value;
}

const cold = (sandbox: Sandbox, toolDir: string) => timeJob(sandbox, toolDir, () => sandbox.newJobFolder());
async function warm(sandbox: Sandbox, toolDir: string): Promise<number> {
  const warmBefore = sandbox.warmJobsRun;
  const elapsed = await timeJob(sandbox, toolDir, () => sandbox.newJobFolder(JOB));
  if (sandbox.warmJobsRun !== warmBefore + 1)
    throw new Error(`the job did not run warm: ${sandbox.warm?.lastError?.message ?? "no warm sandbox"}`);
  return elapsed;
}

function quantile(values: number[], q: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)]!;
}

/**
 * The idle warm sandbox's Node: its resident set, the part of it no other process shares (the rest
 * is the Node binary's pages, shared with every Node on the machine), and what its cgroup is charged.
 */
function idleMemory(sandbox: Sandbox): { rss_mb: number; private_mb: number; cgroup_mb: number | null } {
  const [idle] = sandbox.warm!.idleSandboxes();
  const status = readFileSync(`/proc/${idle!.sandbox.pid.value}/status`, "utf8");
  const kb = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, "m").exec(status)?.[1] ?? NaN);
  const charged = idle!.sandbox.cgroup?.currentBytes() ?? null;
  return {
    rss_mb: +(kb("VmRSS") / 1024).toFixed(1),
    private_mb: +((kb("RssAnon") + kb("RssShmem")) / 1024).toFixed(1),
    cgroup_mb: charged === null ? null : +(charged / 1048576).toFixed(1),
  };
}

/** A bare Node of the same binary, idle on a timer: the least resident memory any Node process holds here. */
async function bareIdleRssMb(node: string): Promise<number> {
  const child = spawn(node, ["-e", "setTimeout(() => {}, 60_000)"], { stdio: "ignore" });
  try {
    await new Promise((resolve) => setTimeout(resolve, 500));
    const status = readFileSync(`/proc/${child.pid}/status`, "utf8");
    return +(Number(/^VmRSS:\s+(\d+) kB/m.exec(status)?.[1] ?? NaN) / 1024).toFixed(1);
  } finally {
    child.kill("SIGKILL");
  }
}

/** `openvibe-link exec` as an author runs it, timed as a whole process: its own Node, the CLI, the sandbox, the teardown. */
function wholeExec(node: string, toolDir: string, inputFile: string): Promise<number> {
  const started = performance.now();
  const bin = path.join(import.meta.dirname, "bin", "openvibe-link.mjs");
  const child = spawn(node, [bin, "exec", "--entry", "tool.js", "--input", inputFile, toolDir], { stdio: "ignore" });
  return new Promise((resolve, reject) => {
    child.on("error", reject);
    child.on("close", (code) =>
      code === 0 ? resolve(performance.now() - started) : reject(new Error(`openvibe-link exec exited ${code}`)),
    );
  });
}
const WHOLE_RUNS = 10;

const sandbox = await Sandbox.create({ warm: true });
const toolDir = mkdtempSync(path.join(os.tmpdir(), "ov-bench-tool-"));
writeFileSync(
  path.join(toolDir, "tool.js"),
  `let s="";process.stdin.on("data",d=>s+=d).on("end",()=>process.stdout.write(JSON.stringify({n:JSON.parse(s).n+1})))`,
);

/** The trivial tool run by a bare Node of the same binary, outside any sandbox, with `flags`. */
const outside = (flags: string[] = []) =>
  bareNode(sandbox.runtime.node, [...flags, path.join(toolDir, "tool.js")], '{"n":1}');
const bare: number[] = [];
const plainTool: number[] = [];
const flagged: number[] = [];
const coldRuns: number[] = [];
const warmRuns: number[] = [];
let memory: ReturnType<typeof idleMemory>;
let bareIdleMb: number;
try {
  if (!(await sandbox.warmUp(JOB)))
    throw new Error(`no warm sandbox: ${sandbox.warm?.lastError?.message ?? "unknown"}`);
  await new Promise((resolve) => setTimeout(resolve, 500));
  memory = idleMemory(sandbox);
  bareIdleMb = await bareIdleRssMb(sandbox.runtime.node);
  for (let i = 0; i < WARMUP; i++) {
    await bareNode(sandbox.runtime.node);
    await outside();
    await outside([NO_CODE_FROM_STRINGS]);
    await cold(sandbox, toolDir);
    await warm(sandbox, toolDir);
  }
  // Interleaved, the order turned each round so that none of the five always follows another.
  const kinds = [
    async () => bare.push(await costing("bare", () => bareNode(sandbox.runtime.node))),
    async () => plainTool.push(await outside()),
    async () => flagged.push(await outside([NO_CODE_FROM_STRINGS])),
    async () => coldRuns.push(await costing("cold", () => cold(sandbox, toolDir))),
    async () => warmRuns.push(await costing("warm", () => warm(sandbox, toolDir))),
  ];
  for (let i = 0; i < RUNS; i++) {
    for (let k = 0; k < kinds.length; k++) await kinds[(i + k) % kinds.length]!();
  }
} finally {
  await sandbox.close();
}
// After the Sandbox above is closed, so that the two never share the machine.
const wholeRuns: number[] = [];
const wholeBare: number[] = [];
try {
  const inputFile = path.join(toolDir, "input.json");
  writeFileSync(inputFile, '{"n":1}');
  await wholeExec(sandbox.runtime.node, toolDir, inputFile);
  for (let i = 0; i < WHOLE_RUNS; i++) {
    wholeBare.push(await bareNode(sandbox.runtime.node));
    wholeRuns.push(await wholeExec(sandbox.runtime.node, toolDir, inputFile));
  }
} finally {
  rmSync(toolDir, { recursive: true, force: true });
}

const row = (name: string, values: number[]) => ({
  name,
  p50_ms: +quantile(values, 0.5).toFixed(1),
  p95_ms: +quantile(values, 0.95).toFixed(1),
});
const bareRow = row("bare `node -e 0`", bare);
const plainRow = row("the tool, no sandbox: `node tool.js`", plainTool);
const flaggedRow = row(`the tool, no sandbox: \`node ${NO_CODE_FROM_STRINGS} tool.js\``, flagged);
const coldRow = row("cold: trivial tool through exec", coldRuns);
const warmRow = row("warm: job bytes in → result out", warmRuns);
const ratioOf = (r: typeof bareRow) => ({
  p50: +(r.p50_ms / bareRow.p50_ms).toFixed(2),
  p95: +(r.p95_ms / bareRow.p95_ms).toFixed(2),
});
const ratio = {
  cold: ratioOf(coldRow),
  warm: ratioOf(warmRow),
  tool: ratioOf(plainRow),
  flagged_tool: ratioOf(flaggedRow),
};
const holds = {
  cold: ratio.cold.p50 <= COLD_BUDGET,
  warm: ratio.warm.p50 <= WARM_BUDGET,
  idle_rss: memory.rss_mb <= IDLE_RSS_BUDGET_MB,
};
const verdict = (ok: boolean) => (ok ? "holds" : "misses");
// Both sides share the machine; a loaded machine stretches the sandbox's extra processes more.
const load = os.loadavg().map((l) => +l.toFixed(2));
console.log(
  `node ${sandbox.runtime.node} (v${sandbox.runtime.nodeMajor}), memory ${sandbox.cgroups.enforcement}, ${RUNS} runs each, interleaved, load ${load.join(" ")} on ${os.availableParallelism()} cpus`,
);
console.table([bareRow, plainRow, flaggedRow, coldRow, warmRow]);
console.log(`warm p50 ${ratio.warm.p50}× bare (budget ≤ ${WARM_BUDGET}×): ${verdict(holds.warm)}`);
console.log(`cold p50 ${ratio.cold.p50}× bare (budget ≤ ${COLD_BUDGET}×): ${verdict(holds.cold)}`);
console.log(
  `of it, outside any sandbox (shown, no budget): the tool itself p50 ${ratio.tool.p50}× bare, with ${NO_CODE_FROM_STRINGS} ${ratio.flagged_tool.p50}× (a V8 flag: V8 then rejects Node's built-in code cache); the sandbox's own part ${(coldRow.p50_ms - flaggedRow.p50_ms).toFixed(1)} ms`,
);
const cpuPerRun = {
  bare_ms: +(machineCpu.bare / RUNS).toFixed(1),
  cold_ms: +(machineCpu.cold / RUNS).toFixed(1),
  warm_ms: +(machineCpu.warm / RUNS).toFixed(1),
};
console.log(
  `machine CPU a run (every process and the kernel; shown, no budget): bare \`node -e 0\` ${cpuPerRun.bare_ms} ms; cold ${cpuPerRun.cold_ms} ms; warm ${cpuPerRun.warm_ms} ms with its teardown and the next sandbox's boot (${(cpuPerRun.warm_ms / Math.max(1, cpuPerRun.bare_ms)).toFixed(2)}× bare): the warm path hides the boot from the job's wait, not from the machine`,
);
const wholeP50 = quantile(wholeRuns, 0.5);
console.log(
  `the whole \`openvibe-link exec\` command (its own Node start, the CLI, the cold sandbox, the teardown): p50 ${wholeP50.toFixed(1)} ms, ${(wholeP50 / quantile(wholeBare, 0.5)).toFixed(1)}× bare (${WHOLE_RUNS} runs; shown, no budget: the sandbox's own start is the budget above)`,
);
console.log(
  `idle warm sandbox: ${memory.rss_mb} MB RSS (budget ≈ ${IDLE_RSS_BUDGET_MB} MB): ${verdict(holds.idle_rss)}; ${memory.private_mb} MB of it private, the rest the Node binary's shared pages; its cgroup is charged ${memory.cgroup_mb ?? "?"} MB; a bare idle \`node\` of the same binary holds ${bareIdleMb} MB RSS here`,
);
console.log(
  JSON.stringify({
    runs: RUNS,
    load,
    bare: bareRow,
    tool: plainRow,
    flagged_tool: flaggedRow,
    cold: coldRow,
    warm: warmRow,
    ratio,
    idle_memory: { ...memory, bare_node_rss_mb: bareIdleMb },
    machine_cpu_per_run: cpuPerRun,
    whole_exec: { p50_ms: +wholeP50.toFixed(1), bare_p50_ms: +quantile(wholeBare, 0.5).toFixed(1), runs: WHOLE_RUNS },
    budget: { cold: COLD_BUDGET, warm: WARM_BUDGET, idle_rss_mb: IDLE_RSS_BUDGET_MB },
    holds,
  }),
);
process.exitCode = holds.cold && holds.warm ? 0 : 1;
