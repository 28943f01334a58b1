import { readFileSync, readdirSync } from "node:fs";
import { parseSync } from "@swc/core";
import { Analyzer } from "./analyze";
import { PARSE_OPTIONS } from "./index";
import { longEncodedRun, firstLongLine } from "./text";
const dir = "lib/scan/corpus/benign";
const parts = readdirSync(dir).filter(f => f !== "long-readable-file.js").map(f => readFileSync(dir + "/" + f, "utf8").split("\n").filter(l => !l.startsWith("import ")).join("\n"));
let code = 'const { readFileSync } = require("node:fs");\n'; for (let j = 0; Buffer.byteLength(code) < 60000; j++) code += "{\n" + parts[j % parts.length] + "\n}\n";
const acc: Record<string, number> = {};
const add = (k: string, t: number) => (acc[k] = (acc[k] ?? 0) + t);
for (let i = 0; i < 80; i++) {
  let t = performance.now(); const prog: any = parseSync(code, PARSE_OPTIONS); if (i >= 20) add("parse", performance.now() - t);
  t = performance.now(); longEncodedRun(code); firstLongLine(code); if (i >= 20) add("text", performance.now() - t);
  const a: any = new Analyzer("public");
  t = performance.now(); a.walkList(prog.body); if (i >= 20) add("walk", performance.now() - t);
  t = performance.now(); for (const m of a.members) a.evalExpr(m); if (i >= 20) add("members", performance.now() - t);
  t = performance.now(); for (const m of a.calls) a.evalExpr(m); if (i >= 20) add("calls", performance.now() - t);
  t = performance.now(); for (const m of a.globalIdents) a.evalExpr(m); for (const p of a.patterns) a.checkPattern(p.pat, () => a.evalBind(p.src), []); if (i >= 20) add("idents+pat", performance.now() - t);
  t = performance.now(); for (const s of a.strings) a.checkLiteral(s); if (i >= 20) add("strings", performance.now() - t);
  t = performance.now(); for (const r of a.foldRoots) a.evalExpr(r); if (i >= 20) add("folds", performance.now() - t);
  t = performance.now(); a.checkLoops(); if (i >= 20) add("loops", performance.now() - t);
  if (i === 0) console.log({ members: a.members.length, calls: a.calls.length, strings: a.strings.length, loops: a.loops.length, binds: a.binds.size });
}
for (const k in acc) console.log(k, (acc[k]! / 60).toFixed(2));
