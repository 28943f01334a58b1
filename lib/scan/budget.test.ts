// Inputs that once kept the analyzer running for minutes (reduced from public skill code), and the
// work budget that bounds any other such input: past it, the scan fails with scan.too_complex.
import { parseSync } from "@swc/core";
import { describe, expect, it } from "vitest";
import { Analyzer } from "./analyze";
import { stepBudget, TooComplex } from "./analyzer/budget";
import { PARSE_OPTIONS, RULES, scanCode, verdictOf } from "./index";

function scan(code: string) {
  return scanCode({ code, resource: "tool.js", tool: { name: "tool", net: "deny" } });
}

describe("inputs that used to stall the analyzer", () => {
  it("finishes on a property assigned from itself on several branches", () => {
    let code = "function adjust(finding, ctx) {\n  finding.note = '';\n";
    for (let i = 0; i < 12; i++)
      code += `  if (ctx.k${i}) { finding.note = (finding.note || '') + ' (case ${i})'; finding.level = 'low'; }\n`;
    code += "  return finding;\n}\nconsole.log(adjust({ level: 'high' }, JSON.parse(process.argv[2])).note);\n";
    const findings = scan(code);
    expect(findings).toEqual([]);
    expect(verdictOf(findings)).toBe("passed");
  });

  it("finishes on objects that read their own property back through a shared variable", () => {
    let code = "let cache = null;\n";
    code += "function load() { if (cache) return cache; cache = JSON.parse(process.argv[2]); return cache; }\n";
    code += "function save(t) { cache = t; }\n";
    for (let i = 0; i < 6; i++)
      code += `function step${i}(d) { const t = load(); const next = { token: d.token, refresh: t.refresh }; save(next); return next.token; }\n`;
    code += "console.log(step0(JSON.parse(process.argv[3])));\n";
    expect(scan(code)).toEqual([]);
  });

  it("follows input through return chains that branch at every level, and still flags the loop", () => {
    let code = "const a = process.argv.length > 2;\nfunction f0() { return Number(process.argv[2]); }\n";
    for (let i = 1; i <= 40; i++) code += `function f${i}() { if (a) return f${i - 1}(); return f${i - 1}(); }\n`;
    code += "for (let i = 0; i < f40(); i++) console.log(i);\n";
    expect(scan(code).map((f) => f.rule)).toEqual(["loop.input"]);
  });
});

describe("the work budget", () => {
  it("fails closed on a string folded past the cap, with a plain sentence", () => {
    let code = 'var a0 = "abcdefgh";\n';
    for (let i = 1; i < 40; i++) code += `var a${i} = a${i - 1} + a${i - 1};\n`;
    code += "console.log(a39.length);\n";
    const findings = scan(code);
    const f = findings.find((x) => x.rule === "scan.too_complex");
    expect(f).toMatchObject({ severity: "fail", message: RULES["scan.too_complex"].message });
    expect(f!.message).toMatch(/too complex to analyse/);
    expect(f!.line).toBeGreaterThan(1);
    expect(verdictOf(findings)).toBe("failed");
  });

  it("stops an analysis that outruns its steps, and lets the same code through on a normal budget", () => {
    let code = "const a = process.argv.length > 2;\nfunction f0() { return [1]; }\n";
    for (let i = 1; i <= 30; i++) code += `function f${i}() { if (a) return f${i - 1}(); return f${i - 1}(); }\n`;
    code += "for (const x of f30()) console.log(x);\n";
    const program = parseSync(code, PARSE_OPTIONS);
    const starved = new Analyzer("deny");
    starved.budget = 50;
    expect(() => starved.run(program)).toThrow(TooComplex);
    const normal = new Analyzer("deny");
    normal.budget = stepBudget(code.length);
    expect(() => normal.run(program)).not.toThrow();
  });

  it("grows with the file's size", () => {
    expect(stepBudget(1_000_000)).toBeGreaterThan(stepBudget(1_000));
    expect(stepBudget(0)).toBeGreaterThan(0);
  });
});
