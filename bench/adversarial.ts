// `npm run bench:adversarial`: for each piece of server code that reads author or agent text
// (bench/adversarial-cases.ts), the time of its worst adversarial input as a ratio to a benign
// input of the same size, measured in the same run (best of several rounds, batches of calls long
// enough to time). Budget: ≤ 3× for every case; exits 1 when one is over.
import { adversarialCases, type AdversarialCase } from "./adversarial-cases";

const BUDGET = 3;
const ROUNDS = Number(process.argv[2] ?? 7);
const TARGET_BATCH_MS = 25;

function timeBatch(run: (s: string) => unknown, input: string, calls: number): number {
  const started = process.hrtime.bigint();
  for (let i = 0; i < calls; i++) run(input);
  return Number(process.hrtime.bigint() - started) / 1e6;
}

/** How many calls of the benign input make a batch long enough to time on a noisy machine. */
function batchSize(c: AdversarialCase): number {
  let calls = 1;
  for (;;) {
    const ms = timeBatch(c.run, c.benign, calls);
    if (ms >= TARGET_BATCH_MS || calls >= 1 << 20) return calls;
    calls = Math.ceil(calls * Math.min(16, Math.max(2, TARGET_BATCH_MS / Math.max(ms, 0.01))));
  }
}

type Row = { name: string; size: number; benignMs: number; worst: string; worstMs: number; ratio: number };

function measure(c: AdversarialCase): Row {
  for (const s of [c.benign, ...Object.values(c.adversarial)]) {
    if (s.length > c.maxLength) throw new Error(`${c.name}: an input is over its ${c.maxLength}-character cap`);
    c.run(s); // warm up every path
  }
  const calls = batchSize(c);
  const best = new Map<string, number>();
  const inputs: [string, string][] = [["benign", c.benign], ...Object.entries(c.adversarial)];
  for (let r = 0; r < ROUNDS; r++) {
    for (const [label, input] of inputs) {
      const ms = timeBatch(c.run, input, calls) / calls;
      best.set(label, Math.min(best.get(label) ?? Infinity, ms));
    }
  }
  const benignMs = best.get("benign")!;
  let worst = "";
  let worstMs = 0;
  for (const [label] of inputs.slice(1)) {
    if (best.get(label)! > worstMs) [worst, worstMs] = [label, best.get(label)!];
  }
  return { name: c.name, size: c.maxLength, benignMs, worst, worstMs, ratio: worstMs / benignMs };
}

const fmt = (ms: number) => (ms >= 1 ? `${ms.toFixed(1)} ms` : `${(ms * 1000).toFixed(1)} µs`);

const rows = adversarialCases().map(measure);
console.log(`bench:adversarial — worst-case input vs benign input of the same size (best of ${ROUNDS} rounds)`);
for (const r of rows) {
  const ok = r.ratio <= BUDGET;
  console.log(
    `  ${ok ? "✓" : "✖"} ${r.name.padEnd(48)} ${String(r.size).padStart(7)} chars  benign ${fmt(r.benignMs).padStart(9)}  ` +
      `worst ${fmt(r.worstMs).padStart(9)} (${r.worst})  ${r.ratio.toFixed(2)}×`,
  );
}
const worst = rows.reduce((a, b) => (b.ratio > a.ratio ? b : a));
const holds = rows.every((r) => r.ratio <= BUDGET);
console.log(`worst ratio ${worst.ratio.toFixed(2)}× (${worst.name}: ${worst.worst}); budget ≤ ${BUDGET}× — ${holds ? "holds" : "OVER BUDGET"}`);
process.exit(holds ? 0 : 1);
