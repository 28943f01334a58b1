// The static scanner for skill tools: parses each tool's code once with swc and reports findings
// (fail | flag) with a rule id, place and a sentence a person can read. It never runs the code.
import { parseSync } from "@swc/core";
import { Analyzer } from "./analyze";
import { RULES, verdictOf, type Finding, type Net, type RuleId, type Verdict } from "./rules";
import { PARSE_OPTIONS, SourceMapper, firstEncodedRunInFile, firstLongLine, nestingRisk } from "./text";

export { PARSE_OPTIONS } from "./text";

export { RULES, verdictOf, LONG_ENCODED_CHARS, MAX_LINE_BYTES, MAX_TIMER_MS } from "./rules";
export type { Finding, Net, RuleId, Severity, Verdict } from "./rules";

export interface ScanInput {
  code: string;
  resource: string;
  tool?: { name?: string; net?: Net };
}

export function scanCode(input: ScanInput): Finding[] {
  const { code, resource } = input;
  const toolName = input.tool?.name;
  const net: Net = input.tool?.net ?? "deny";
  const ascii = Buffer.byteLength(code) === code.length;
  const map = new SourceMapper(code, ascii);
  const out: Finding[] = [];
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
    return out;
  }

  let program: unknown;
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
    return out;
  }

  const analyzer = new Analyzer(net);
  try {
    analyzer.run(program);
  } catch {
    // code the analyzer cannot follow (e.g. nesting deep enough to exhaust the stack) fails closed
    analyzer.findings.push({ rule: "scan.unresolved", pos: 1 });
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
  return out;
}

export interface SkillResource {
  name: string;
  media_type?: string;
  text?: string;
}
export interface SkillTool {
  name: string;
  entry: string;
  net?: Net;
}
export interface SkillDocument {
  resources?: SkillResource[];
  tools?: SkillTool[];
}

/** Scans every tool's entry of an actor.skill@2 document with that tool's `net`. */
export function scanSkill(document: SkillDocument): { verdict: Verdict; findings: Finding[] } {
  const findings: Finding[] = [];
  const resources = new Map<string, SkillResource>();
  for (const r of document.resources ?? []) if (r && typeof r.name === "string") resources.set(r.name, r);
  for (const tool of document.tools ?? []) {
    const res = resources.get(tool.entry);
    if (!res || typeof res.text !== "string") {
      const r = RULES["scan.entry_missing"];
      findings.push({
        rule: "scan.entry_missing",
        severity: r.severity,
        tool: tool.name,
        resource: String(tool.entry),
        line: 0,
        column: 0,
        excerpt: "",
        message: r.message,
      });
      continue;
    }
    findings.push(
      ...scanCode({ code: res.text, resource: res.name, tool: { name: tool.name, net: tool.net ?? "deny" } }),
    );
  }
  return { verdict: verdictOf(findings), findings };
}
