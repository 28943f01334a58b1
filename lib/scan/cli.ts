// `openvibe-scan [--net deny|openvibe-only|public] [--json] PATH...`: the registry's scanner on local
// files and skill folders (a skill.json and its resources), one verdict per argument. A folder gets
// a verdict per tool (with its net from skill.json) and per resource. Exit 0 when none failed, 1
// when any failed or broke the contract, 2 on a usage error.
import { readFileSync, statSync } from "node:fs";
import path from "node:path";
import { loadBundle } from "../contracts";
import {
  auditSkillDocument,
  isSkillMdDir,
  loadInstructionParsers,
  scanSkillMdFolder,
  type AuditFinding,
} from "../instructions";
import { scanFolder, type FolderReport } from "./folder";
import { scanCode, verdictOf, type Net } from "./index";

const USAGE = "usage: openvibe-scan [--net deny|openvibe-only|public] [--json] FILE|DIR|SKILL.md-DIR...";
const NETS = new Set<Net>(["deny", "openvibe-only", "public"]);

export interface CliIO {
  out: (s: string) => void;
  err: (s: string) => void;
}

export async function main(argv: string[], io: CliIO): Promise<number> {
  let net: Net = "deny";
  let json = false;
  const paths: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    if (a === "--json") json = true;
    else if (a === "--net" || a.startsWith("--net=")) {
      const v = a === "--net" ? argv[++i] : a.slice(6);
      if (!v || !NETS.has(v as Net)) {
        io.err(`openvibe-scan: --net must be deny, openvibe-only or public\n${USAGE}\n`);
        return 2;
      }
      net = v as Net;
    } else if (a === "--help" || a === "-h") {
      io.out(USAGE + "\n");
      return 0;
    } else if (a.startsWith("-") && a !== "-") {
      io.err(`openvibe-scan: unknown option ${a}\n${USAGE}\n`);
      return 2;
    } else paths.push(a);
  }
  if (paths.length === 0) {
    io.err(USAGE + "\n");
    return 2;
  }
  let anyFailed = false;
  await loadInstructionParsers();
  for (const arg of paths) {
    if (isSkillMdDir(arg) && !isSkillJsonDir(arg)) {
      const r = scanSkillMdFolder(arg);
      if (r.verdict === "failed" || r.verdict === "invalid") anyFailed = true;
      io.out(
        json
          ? JSON.stringify(r) + "\n"
          : `${arg}: ${r.verdict}\n${errorLines(r.errors)}${findingLines(r.findings, "  ", true)}`,
      );
      continue;
    }
    let report: Report;
    let folder = false;
    try {
      folder = statSync(arg).isDirectory();
      report = folder ? { ...(await scanSkillFolder(arg)), file: arg } : scanOneFile(arg, net);
    } catch (e) {
      io.err(`openvibe-scan: cannot read ${arg}: ${(e as NodeJS.ErrnoException).code ?? String(e)}\n`);
      return 2;
    }
    if (report.verdict === "failed" || report.verdict === "invalid") anyFailed = true;
    if (json) {
      const { file, verdict, tools, resources, findings, errors } = report;
      const line = { file, verdict, tools, resources, findings, ...(errors ? { errors } : {}) };
      io.out(JSON.stringify(line) + "\n");
    } else io.out(describe(report, folder));
  }
  return anyFailed ? 1 : 0;
}

function isSkillJsonDir(dir: string): boolean {
  try {
    return statSync(path.join(dir, "skill.json")).isFile();
  } catch {
    return false;
  }
}

/** What the CLI prints for one argument: the scanner's report, with the instruction audit's findings. */
type Report = Omit<FolderReport, "findings"> & { findings: AuditFinding[] };

/** A skill.json folder: the code scan, plus the instruction audit the publish scan job also runs. */
async function scanSkillFolder(dir: string): Promise<Report> {
  const report = await scanFolder(dir);
  const bundle = report.verdict === "invalid" ? null : await loadBundle(dir);
  if (!bundle?.ok) return report;
  const doc = bundle.document;
  const tools = doc.contract === "actor.skill@2" && doc.runs === "sandbox" ? (doc.tools ?? []) : [];
  const audit = auditSkillDocument({ instructions: doc.instructions, resources: doc.resources, tools });
  const findings = [...report.findings, ...audit.findings];
  return { ...report, verdict: verdictOf(findings), findings };
}

/** A single code file, as the one tool of its own name under `--net`. */
function scanOneFile(file: string, net: Net): FolderReport {
  const code = readFileSync(file, "utf8");
  const name = path.basename(file).replace(/\.[cm]?js$/, "");
  const resource = path.basename(file);
  const findings = scanCode({ code, resource, tool: { name, net } });
  const verdict = verdictOf(findings);
  return {
    file,
    verdict,
    tools: [{ name, net, entry: resource, verdict, findings, modules: [resource] }],
    resources: [{ name: resource, verdict, findings, tools: [name] }],
    findings,
  };
}

/** Why a folder does not publish, one line per refusal. */
function errorLines(errors: readonly { path: string; code: string; message: string }[] | undefined): string {
  return (errors ?? []).map((e) => `  ${(e.path || "/").padEnd(24)} ${e.code}: ${e.message}\n`).join("");
}

function describe(r: Report, folder: boolean): string {
  let s = `${r.file}: ${r.verdict}\n`;
  if (r.errors) return s + errorLines(r.errors);
  if (!folder) return s + findingLines(r.findings, "  ", false);
  for (const t of r.tools) {
    s += `  tool ${t.name} (net: ${t.net}, entry ${t.entry}): ${t.verdict}\n`;
    s += findingLines(t.findings, "    ", true);
  }
  for (const res of r.resources) {
    const by = res.tools.length ? `reached by ${res.tools.join(", ")}` : "no entry reaches it; scanned on its own";
    s += `  resource ${res.name} (${by}): ${res.verdict}\n`;
  }
  return s;
}

function findingLines(findings: readonly AuditFinding[], indent: string, withResource: boolean): string {
  let s = "";
  for (const f of findings) {
    const where = withResource ? `${f.resource}:${f.line}:${f.column}` : `${f.line}:${f.column}`;
    s += `${indent}${where}  ${f.severity}  ${f.rule}  ${f.message}\n${indent}    ${f.excerpt}\n`;
  }
  return s;
}

const launchedAs = process.argv[1] ? path.resolve(process.argv[1]) : "";
if (
  launchedAs === path.resolve(import.meta.filename) ||
  launchedAs.endsWith(`${path.sep}openvibe-scan.mjs`) ||
  launchedAs.endsWith(`${path.sep}openvibe-scan`)
) {
  process.exitCode = await main(process.argv.slice(2), {
    out: (s) => process.stdout.write(s),
    err: (s) => process.stderr.write(s),
  });
}
