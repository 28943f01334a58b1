// The module graph of a skill: each tool's entry and every module it reaches, each scanned with
// that tool's `net`; a finding in a reached module belongs to the tool and names the module. Code
// that no entry reaches still ships in the job, so it is scanned too, as its own finding group
// (no tool) under the widest `net` any tool has. A module name that cannot be followed fails.
import { scanFile, type FileScan } from "./file";
import { resolveModule } from "./resolve";
import { RULES, verdictOf, type Finding, type Net, type RuleId, type Verdict } from "./rules";

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

export interface ToolScan {
  name: string;
  net: Net;
  entry: string;
  verdict: Verdict;
  findings: Finding[];
  /** Every resource the tool's entry reaches, the entry first. */
  modules: string[];
}
export interface ResourceScan {
  name: string;
  verdict: Verdict;
  findings: Finding[];
  /** The tools whose entry reaches this resource; empty for code no entry reaches. */
  tools: string[];
}
export interface SkillScan {
  verdict: Verdict;
  findings: Finding[];
  tools: ToolScan[];
  resources: ResourceScan[];
}

const NET_ORDER: Net[] = ["deny", "openvibe-only", "public"];

const isCode = (r: SkillResource) => r.media_type === "text/javascript" || r.name.endsWith(".js");
const isJson = (name: string) => name.endsWith(".json");

/** Scans every tool's module graph, then every code resource no entry reaches. */
export function scanSkill(document: SkillDocument): SkillScan {
  const resources = new Map<string, SkillResource>();
  for (const r of document.resources ?? []) if (r && typeof r.name === "string") resources.set(r.name, r);
  const has = (name: string) => resources.has(name);
  const packageJson = (name: string) => resources.get(name)?.text;
  const cache = new Map<string, FileScan>();
  const scanOnce = (res: SkillResource & { text: string }, net: Net): FileScan => {
    const k = net + "\0" + res.name;
    let hit = cache.get(k);
    if (!hit) {
      hit = scanFile({ code: res.text, resource: res.name, tool: { net } });
      cache.set(k, hit);
    }
    return hit;
  };

  /** Walks the graph from `roots` under `net`; findings carry `tool` when there is one. */
  const walk = (roots: string[], net: Net, tool: string | undefined, skip: ReadonlySet<string>) => {
    const findings: Finding[] = [];
    const seen = new Set<string>(roots);
    const queue = [...roots];
    const finding = (rule: RuleId, resource: string, at: { line: number; column: number; excerpt: string }) => {
      const f: Finding = { rule, severity: RULES[rule].severity, resource, ...at, message: RULES[rule].message };
      if (tool !== undefined) f.tool = tool;
      findings.push(f);
    };
    for (let i = 0; i < queue.length; i++) {
      const name = queue[i]!;
      const res = resources.get(name);
      if (!res || typeof res.text !== "string") {
        finding("scan.entry_missing", name, { line: 0, column: 0, excerpt: "" });
        continue;
      }
      if (isJson(name) && i > 0) continue;
      const scanned = scanOnce(res as SkillResource & { text: string }, net);
      for (const f of scanned.findings) findings.push(tool === undefined ? f : { ...f, tool });
      for (const req of scanned.requests) {
        const r = resolveModule(name, req.spec, has, packageJson);
        if (!r.ok) {
          finding(r.rule, name, { line: req.line, column: req.column, excerpt: req.excerpt });
          continue;
        }
        for (const t of r.targets) {
          if (seen.has(t) || skip.has(t)) continue;
          seen.add(t);
          queue.push(t);
        }
      }
    }
    return { findings, modules: queue };
  };

  const tools: ToolScan[] = [];
  const reached = new Set<string>();
  for (const t of document.tools ?? []) {
    const net: Net = t.net ?? "deny";
    const entry = String(t.entry);
    const { findings, modules } = walk([entry], net, t.name, new Set());
    for (const m of modules) reached.add(m);
    tools.push({ name: t.name, net, entry, verdict: verdictOf(findings), findings, modules });
  }

  const widest = tools.reduce<Net>((w, t) => (NET_ORDER.indexOf(t.net) > NET_ORDER.indexOf(w) ? t.net : w), "deny");
  const unreached = [...resources.values()].filter((r) => isCode(r) && !reached.has(r.name)).map((r) => r.name);
  const dead = unreached.length ? walk(unreached, widest, undefined, reached).findings : [];

  const findings = [...tools.flatMap((t) => t.findings), ...dead];
  const byResource = new Map<string, ResourceScan>();
  const resourceScan = (name: string) => {
    let r = byResource.get(name);
    if (!r) {
      r = { name, verdict: "passed", findings: [], tools: [] };
      byResource.set(name, r);
    }
    return r;
  };
  for (const t of tools) for (const m of t.modules) if (resources.has(m)) resourceScan(m).tools.push(t.name);
  for (const name of unreached) resourceScan(name);
  for (const f of findings) if (resources.has(f.resource)) resourceScan(f.resource).findings.push(f);
  for (const r of byResource.values()) r.verdict = verdictOf(r.findings);
  return { verdict: verdictOf(findings), findings, tools, resources: [...byResource.values()] };
}
