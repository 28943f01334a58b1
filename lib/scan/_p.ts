import { readFileSync, readdirSync } from "node:fs";
import { firstEncodedRunInFile, longEncodedRun, firstLongLine } from "./text";
const dir = "lib/scan/corpus/benign";
const parts = readdirSync(dir).filter(f => f !== "long-readable-file.js").map(f => readFileSync(dir + "/" + f, "utf8"));
let code = ""; for (let j = 0; code.length < 64000; j++) code += parts[j % parts.length];
for (const [name, fn] of [["regex", () => firstEncodedRunInFile(code)], ["loop", () => longEncodedRun(code)], ["lines", () => firstLongLine(code, true)], ["bytelen", () => Buffer.byteLength(code)]] as const) {
  for (let i = 0; i < 50; i++) fn();
  const t = performance.now(); for (let i = 0; i < 200; i++) fn(); console.log(name, ((performance.now() - t) / 200).toFixed(3), "ms");
}
