// `openvibe-scan [--net deny|openvibe-only|public] [--json] FILE...`: the registry's scanner on local
// files, one verdict per file. Exit 0 when none failed, 1 when any failed, 2 on a usage error.
import { readFileSync } from "node:fs";
import path from "node:path";
import { scanCode, verdictOf, type Net } from "./index";
import { loadInstructionParsers } from "../instructions/audit";
import { isSkillMdDir, scanSkillMdFolder } from "../instructions/scan-skill-md-folder";

await loadInstructionParsers();

const USAGE = "usage: openvibe-scan [--net deny|openvibe-only|public] [--json] FILE|SKILL.md-DIR...";
const NETS = new Set<Net>(["deny", "openvibe-only", "public"]);

export interface CliIO {
  out: (s: string) => void;
  err: (s: string) => void;
}

export function main(argv: string[], io: CliIO): number {
  let net: Net = "deny";
  let json = false;
  const files: string[] = [];
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
    } else files.push(a);
  }
  if (files.length === 0) {
    io.err(USAGE + "\n");
    return 2;
  }
  let anyFailed = false;
  for (const file of files) {
    if (isSkillMdDir(file)) {
      const r = scanSkillMdFolder(file);
      if (r.verdict === "failed" || r.verdict === "invalid") anyFailed = true;
      io.out(json ? JSON.stringify(r) + "\n" : `${file}: ${r.verdict}\n${r.findings.map((f) => `  ${f.resource}:${f.line}  ${f.severity}  ${f.rule}  ${f.message}\n`).join("")}`);
      continue;
    }
    let code: string;
    try {
      code = readFileSync(file, "utf8");
    } catch (e) {
      io.err(`openvibe-scan: cannot read ${file}: ${(e as NodeJS.ErrnoException).code ?? String(e)}\n`);
      return 2;
    }
    const name = path.basename(file).replace(/\.[cm]?js$/, "");
    const findings = scanCode({ code, resource: path.basename(file), tool: { name, net } });
    const verdict = verdictOf(findings);
    if (verdict === "failed") anyFailed = true;
    if (json) {
      io.out(JSON.stringify({ file, verdict, findings }) + "\n");
      continue;
    }
    io.out(`${file}: ${verdict}\n`);
    for (const f of findings) {
      io.out(`  ${f.line}:${f.column}  ${f.severity}  ${f.rule}  ${f.message}\n      ${f.excerpt}\n`);
    }
  }
  return anyFailed ? 1 : 0;
}

const launchedAs = process.argv[1] ? path.resolve(process.argv[1]) : "";
if (
  launchedAs === path.resolve(import.meta.filename) ||
  launchedAs.endsWith(`${path.sep}openvibe-scan.mjs`) ||
  launchedAs.endsWith(`${path.sep}openvibe-scan`)
) {
  process.exitCode = main(process.argv.slice(2), {
    out: (s) => process.stdout.write(s),
    err: (s) => process.stderr.write(s),
  });
}
