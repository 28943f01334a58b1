// The static scanner for skill tools: parses each tool's code once with swc and reports findings
// (fail | flag) with a rule id, place and a sentence a person can read. It never runs the code.
// A skill is scanned as a module graph from each tool's entry (graph.ts), each file by file.ts.
export { PARSE_OPTIONS } from "./text";
export { scanCode, scanFile, type ScanInput, type FileScan, type ModuleRequestAt } from "./file";
export {
  scanSkill,
  type SkillDocument,
  type SkillResource,
  type SkillTool,
  type SkillScan,
  type ToolScan,
  type ResourceScan,
} from "./graph";
export { resolveModule } from "./resolve";

export { RULES, verdictOf, LONG_ENCODED_CHARS, MAX_LINE_BYTES, MAX_TIMER_MS } from "./rules";
export type { Finding, Net, RuleId, Severity, Verdict } from "./rules";
export { SCANNER_VERSION } from "./version";
