// `npm run bench:scan`: time to scan a 64 KiB tool (p50/p99, MB/s) against a bare @swc/core parse of
// the same inputs in the same run, printed as a ratio; then the same bytes as a skill whose entry
// requires seven helpers, scanned as a module graph (scanSkill) against parsing every module.
// Inputs are built from the benign corpus.
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { parseSync } from "@swc/core";
import { PARSE_OPTIONS, scanCode, scanSkill, type SkillResource } from "../lib/scan";

const TOOL_BYTES = 64 * 1024;
const INPUTS = 8;
const WARMUP_ROUNDS = 15;
const ROUNDS = Number(process.argv[2] ?? 60);

function buildInputs(): string[] {
  const dir = path.join(import.meta.dirname, "..", "lib", "scan", "corpus", "benign");
  const parts = readdirSync(dir)
    .filter((f) => f.endsWith(".js") && f !== "long-readable-file.js")
    .sort()
    .map((f) =>
      readFileSync(path.join(dir, f), "utf8")
        .split("\n")
        .filter((l) => !l.startsWith("import "))
        .join("\n"),
    );
  const header = 'const { readFileSync } = require("node:fs");\nconst readline = require("node:readline");\n';
  const inputs: string[] = [];
  for (let i = 0; i < INPUTS; i++) {
    let code = header;
    for (let j = 0; ; j++) {
      const block = `{\n${parts[(i + j) % parts.length]}\n}\n`;
      if (Buffer.byteLength(code + block) > TOOL_BYTES) break;
      code += block;
    }
    code += "/*" + " ".repeat(Math.max(0, TOOL_BYTES - Buffer.byteLength(code) - 5)) + "*/\n";
    inputs.push(code);
  }
  return inputs;
}

const HELPERS = 7;

/** The same code as a skill: the first block and a require of each helper in the entry, the rest in helpers. */
function asSkill(code: string): SkillResource[] {
  const blocks = code.split("\n{\n");
  const header = blocks.shift()!;
  const per = Math.ceil(blocks.length / (HELPERS + 1));
  const files: SkillResource[] = [];
  for (let h = 0; h <= HELPERS; h++) {
    const body = blocks
      .slice(h * per, (h + 1) * per)
      .map((b) => "{\n" + b)
      .join("\n");
    const name = h === 0 ? "tools/main.js" : `tools/lib/helper-${h}.js`;
    const requires =
      h === 0
        ? Array.from({ length: HELPERS }, (_, i) => `require("./lib/helper-${i + 1}.js");`).join("\n") + "\n"
        : "";
    files.push({ name, media_type: "text/javascript", text: header + requires + body });
  }
  return files;
}

function pct(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((sorted.length - 1) * p))]!;
}

function measure(label: string, samples: { parse: () => void; scan: () => void }[], bytes: number) {
  const parseMs: number[] = [];
  const scanMs: number[] = [];
  for (let r = 0; r < WARMUP_ROUNDS + ROUNDS; r++) {
    for (const sample of samples) {
      // alternate the order so neither side always runs on a warmer cache
      const first = r % 2 === 0;
      let tp = 0;
      let ts = 0;
      for (const side of first ? [0, 1] : [1, 0]) {
        const t0 = performance.now();
        if (side === 0) sample.parse();
        else sample.scan();
        const dt = performance.now() - t0;
        if (side === 0) tp = dt;
        else ts = dt;
      }
      if (r >= WARMUP_ROUNDS) {
        parseMs.push(tp);
        scanMs.push(ts);
      }
    }
  }
  parseMs.sort((a, b) => a - b);
  scanMs.sort((a, b) => a - b);
  const mbps = (ms: number) => bytes / 1e6 / (ms / 1000);
  const p50p = pct(parseMs, 0.5);
  const p50s = pct(scanMs, 0.5);
  const sumP = parseMs.reduce((a, b) => a + b, 0);
  const sumS = scanMs.reduce((a, b) => a + b, 0);
  console.log(
    `${label}: ${samples.length} inputs × ${Math.round(bytes)} bytes, ${ROUNDS} rounds (${parseMs.length} samples each)`,
  );
  console.log(
    `  bare parse : p50 ${p50p.toFixed(2)} ms  p99 ${pct(parseMs, 0.99).toFixed(2)} ms  ${mbps(p50p).toFixed(1)} MB/s`,
  );
  console.log(
    `  scan       : p50 ${p50s.toFixed(2)} ms  p99 ${pct(scanMs, 0.99).toFixed(2)} ms  ${mbps(p50s).toFixed(1)} MB/s`,
  );
  console.log(
    `  ratio scan/parse: p50 ${(p50s / p50p).toFixed(2)}×  total ${(sumS / sumP).toFixed(2)}×  (target ≤ 1.5×)`,
  );
}

function main() {
  const inputs = buildInputs();
  const bytes = inputs.reduce((s, c) => s + Buffer.byteLength(c), 0) / inputs.length;
  const tool = { name: "bench", net: "public" as const };
  const skills = inputs.map(asSkill);
  for (const code of inputs) {
    const f = scanCode({ code, resource: "bench.js", tool });
    if (f.some((x) => x.severity === "fail"))
      throw new Error("bench input unexpectedly fails: " + JSON.stringify(f.filter((x) => x.severity === "fail")));
  }
  for (const resources of skills) {
    const r = scanSkill({ resources, tools: [{ name: "bench", entry: "tools/main.js", net: "public" }] });
    if (r.verdict === "failed" || r.tools[0]!.modules.length !== HELPERS + 1)
      throw new Error("bench skill unexpectedly fails: " + JSON.stringify(r.findings.slice(0, 3)));
  }
  measure(
    "one tool",
    inputs.map((code) => ({
      parse: () => parseSync(code, PARSE_OPTIONS),
      scan: () => scanCode({ code, resource: "bench.js", tool }),
    })),
    bytes,
  );
  measure(
    `skill graph (entry + ${HELPERS} helpers)`,
    skills.map((resources) => ({
      parse: () => {
        for (const r of resources) parseSync(r.text!, PARSE_OPTIONS);
      },
      scan: () => scanSkill({ resources, tools: [{ name: "bench", entry: "tools/main.js", net: "public" }] }),
    })),
    skills.reduce((s, k) => s + k.reduce((t, r) => t + Buffer.byteLength(r.text!), 0), 0) / skills.length,
  );
}

main(); process.exit(0);
/** The instruction audit of 64 KiB of instructions (issue 20: ≤ 20 ms p50 on top of the tool scan). */
async function instructionsBench() {
  const { auditInstructions, loadInstructionParsers } = await import("../lib/instructions");
  const { benignInstructions } = await import("./adversarial-cases");
  await loadInstructionParsers();
  const codeHeavy = benignInstructions();
  const prose = "Write short sentences and keep one idea per paragraph; check the numbers before you answer.\n\n";
  const fence = "```bash\nnpm run build && npm test\n```\n\n";
  let typical = "";
  for (let i = 0; typical.length < 64 * 1024; i++) typical += i % 8 === 7 ? fence : prose;
  typical = typical.slice(0, 64 * 1024);
  for (const [name, text] of [["typical (prose, some fences)", typical], ["code-heavy (benign corpus)", codeHeavy]] as const) {
    const ms: number[] = [];
    for (let r = 0; r < WARMUP_ROUNDS + ROUNDS; r++) {
      const t0 = performance.now();
      auditInstructions({ instructions: text, resources: [] });
      if (r >= WARMUP_ROUNDS) ms.push(performance.now() - t0);
    }
    ms.sort((a, b) => a - b);
    console.log(`instructions 64 KiB ${name}: p50 ${pct(ms, 0.5).toFixed(2)} ms  p99 ${pct(ms, 0.99).toFixed(2)} ms  (target p50 ≤ 20 ms)`);
  }
}
await instructionsBench();
