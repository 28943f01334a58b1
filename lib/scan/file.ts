// One code file through the scanner: text checks, then swc's parse, then the AST rules. Returns the
// findings and the modules the file loads by a literal name, for the module graph to follow.
import { parseSync } from "@swc/core";
import type { Program } from "@swc/types";
import { Analyzer } from "./analyze";
import { stepBudget, TooComplex } from "./analyzer/budget";
import { RULES, type Finding, type Net, type RuleId } from "./rules";
import { PARSE_OPTIONS, SourceMapper, firstEncodedRunInFile, firstLongLine, nestingRisk } from "./text";

export interface ScanInput {
  code: string;
  resource: string;
  tool?: { name?: string; net?: Net };
}

/** A module the file loads by a literal name (not one of Node's own), with where it is asked for. */
export interface ModuleRequestAt {
  spec: string;
  line: number;
  column: number;
  excerpt: string;
}

export interface FileScan {
  findings: Finding[];
  requests: ModuleRequestAt[];
}

export function scanCode(input: ScanInput): Finding[] {
  return scanFile(input).findings;
}

export function scanFile(input: ScanInput): FileScan {
  const { code, resource } = input;
  const toolName = input.tool?.name;
  const net: Net = input.tool?.net ?? "deny";
  const ascii = Buffer.byteLength(code) === code.length;
  const map = new SourceMapper(code, ascii);
  const out: Finding[] = [];
  const requests: ModuleRequestAt[] = [];
  const add = (rule: RuleId, loc: { line: number; column: number; excerpt: string }, excerpt?: string) => {
    const r = RULES[rule];
    const f: Finding = {
      rule,
      severity: r.severity,
      resource,
      line: loc.line,
      column: loc.column,
      excerpt: excerpt ?? loc.excerpt,
      message: r.message,
    };
    if (toolName !== undefined) f.tool = toolName;
    out.push(f);
  };

  const long = firstLongLine(code, ascii);
  if (long !== -1) add("code.minified", map.locateIndex(long));
  const run = firstEncodedRunInFile(code);
  if (run !== -1) add("payload.encoded", map.locateIndex(run));

  const deep = nestingRisk(code);
  if (deep !== -1) {
    add("scan.too_deep", map.locateIndex(deep));
    return { findings: out, requests };
  }

  let program: Program;
  try {
    program = parseSync(code, PARSE_OPTIONS);
  } catch (err) {
    const msg = String(err instanceof Error ? err.message : err);
    const m = /-->\s*\S*?:(\d+):(\d+)|\n\s*(\d+)\s*\|/.exec(msg);
    const line = m ? Number(m[1] ?? m[3]) : 1;
    const first =
      msg
        .split("\n")
        .find((l) => l.trim().startsWith("x "))
        ?.trim()
        .slice(2) ?? "syntax error";
    const f = map.locateIndex(0);
    add("scan.parse", { line, column: m?.[2] ? Number(m[2]) : 1, excerpt: f.excerpt }, first.slice(0, 160));
    return { findings: out, requests };
  }

  const analyzer = new Analyzer(net);
  analyzer.budget = stepBudget(code.length);
  try {
    analyzer.run(program);
  } catch (err) {
    // past the work budget, or code the analyzer cannot follow (e.g. nesting deep enough to
    // exhaust the stack): fails closed
    if (err instanceof TooComplex) analyzer.findings.push({ rule: "scan.too_complex", pos: err.pos });
    else analyzer.findings.push({ rule: "scan.unresolved", pos: 1 });
  }
  // one finding per rule and line is enough for a person; aliases of one read share a line
  const seen = new Set(out.map((f) => f.rule + ":" + f.line));
  for (const rf of analyzer.findings) {
    const loc = map.locate(rf.pos);
    const k = rf.rule + ":" + loc.line;
    if (seen.has(k)) continue;
    seen.add(k);
    add(rf.rule, loc);
  }
  out.sort((a, b) => a.line - b.line || a.column - b.column);
  const asked = new Set<string>();
  for (const r of analyzer.requests) {
    if (asked.has(r.spec)) continue;
    asked.add(r.spec);
    requests.push({ spec: r.spec, ...map.locate(r.pos) });
  }
  return { findings: out, requests };
}
