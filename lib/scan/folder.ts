// A skill folder (a `skill.json` and its resources) through the registry's own checks: the
// contract validator first (a folder that breaks it is `invalid`, with every error), then the
// scanner over each tool's module graph and every code resource no entry reaches.
import { loadBundle, type ContractError } from "../contracts";
import { scanSkill } from "./graph";
import type { Finding, Net, Verdict } from "./rules";

export interface FolderToolReport {
  name: string;
  net: Net;
  entry: string;
  verdict: Verdict;
  findings: Finding[];
  /** The resources the entry reaches, the entry first. */
  modules: string[];
}
export interface FolderResourceReport {
  name: string;
  verdict: Verdict;
  findings: Finding[];
  /** The tools whose entry reaches it; empty for code that ships but no entry reaches. */
  tools: string[];
}
export interface FolderReport {
  file: string;
  verdict: Verdict | "invalid";
  tools: FolderToolReport[];
  resources: FolderResourceReport[];
  findings: Finding[];
  errors?: ContractError[];
}

export async function scanFolder(dir: string): Promise<FolderReport> {
  const bundle = await loadBundle(dir);
  if (!bundle.ok)
    return { file: dir, verdict: "invalid", tools: [], resources: [], findings: [], errors: bundle.errors };
  const doc = bundle.document;
  const sandbox = doc.contract === "actor.skill@2" && doc.runs === "sandbox";
  const scan = scanSkill({ resources: doc.resources, tools: sandbox ? (doc.tools ?? []) : [] });
  return {
    file: dir,
    verdict: scan.verdict,
    tools: scan.tools.map((t) => ({
      name: t.name,
      net: t.net,
      entry: t.entry,
      verdict: t.verdict,
      findings: t.findings,
      modules: t.modules,
    })),
    resources: scan.resources,
    findings: scan.findings,
  };
}
