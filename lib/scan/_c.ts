import { readdirSync, readFileSync } from "node:fs";
import { scanCode, verdictOf } from "./index";
for (const kind of ["hostile", "benign"]) {
  const dir = `lib/scan/corpus/${kind}`;
  for (const f of readdirSync(dir).sort()) {
    const code = readFileSync(`${dir}/${f}`, "utf8");
    const net = /\/\/ net: (\S+)/.exec(code)![1] as any;
    const expect = /\/\/ expect: (\S+)/.exec(code)?.[1];
    const t0 = performance.now();
    const fs = scanCode({ code, resource: f, tool: { name: "t", net } });
    const ms = performance.now() - t0;
    const v = verdictOf(fs);
    const ok = kind === "benign" ? v === "passed" : fs.some((x) => x.rule === expect);
    if (!ok || ms > 50) console.log(kind, f, v, ms.toFixed(1), fs.map((x) => `${x.rule}@${x.line}:${x.column}`).join(" "));
  }
}
