// `openvibe-scan DIR` for an Agent Skills folder (SKILL.md at its root): the instruction audit of
// its SKILL.md and every other text file, in the code scanner's folder shape. A folder that is not
// a readable SKILL.md folder is `invalid`. Call loadInstructionParsers() once before.
import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { RESOURCE_TEXT_MAX_BYTES } from "../contracts";
import { isClutter, SKILL_MD } from "../registry/skill-md";
import { splitSkillMd } from "../registry/skill-md-front-matter";
import { auditInstructions, type InstructionAudit } from "./audit";
import type { AuditFinding } from "./rules";

export type SkillMdFolderScan = {
  file: string;
  verdict: "passed" | "flagged" | "failed" | "invalid";
  tools: { name: string; verdict: string; findings: AuditFinding[] }[];
  findings: AuditFinding[];
  instructions: Pick<InstructionAudit, "asks" | "scripts"> & { verdict: InstructionAudit["verdict"] };
  error?: string;
};

const MAX_FILES = 200;

export function isSkillMdDir(dir: string): boolean {
  try {
    return statSync(dir).isDirectory() && statSync(path.join(dir, SKILL_MD)).isFile();
  } catch {
    return false;
  }
}

export function scanSkillMdFolder(dir: string): SkillMdFolderScan {
  const invalid = (error: string): SkillMdFolderScan => ({
    file: dir,
    verdict: "invalid",
    tools: [],
    findings: [],
    instructions: { verdict: "passed", asks: [], scripts: [] },
    error,
  });
  const files = readTextFiles(dir);
  const skillMd = files.get(SKILL_MD);
  if (skillMd === undefined) return invalid("The folder has no readable SKILL.md at its root.");
  const split = splitSkillMd(skillMd);
  if ("code" in split) return invalid(split.message);
  const bodyAt = skillMd.length - split.body.length;
  const audit = auditInstructions({
    instructions: split.body,
    instructionsResource: SKILL_MD,
    instructionsLine: 1 + countNewlines(skillMd.slice(0, bodyAt)),
    frontMatter: split.frontMatter,
    resources: [...files].filter(([name]) => name !== SKILL_MD).map(([name, text]) => ({ name, text })),
  });
  return {
    file: dir,
    verdict: audit.verdict,
    tools: [],
    findings: audit.findings,
    instructions: { verdict: audit.verdict, asks: audit.asks, scripts: audit.scripts },
  };
}

/** Every UTF-8 text file of the folder up to the resource size cap, by its path inside it. */
function readTextFiles(dir: string): Map<string, string> {
  const out = new Map<string, string>();
  const walk = (rel: string) => {
    let entries: import("node:fs").Dirent[];
    try {
      entries = readdirSync(path.join(dir, rel), { withFileTypes: true });
    } catch {
      return;
    }
    for (const e of entries) {
      if (out.size >= MAX_FILES) return;
      const name = rel ? `${rel}/${e.name}` : e.name;
      if (isClutter(name) || e.name === "node_modules") continue;
      if (e.isDirectory()) walk(name);
      else if (e.isFile()) {
        const bytes = readFileSync(path.join(dir, name));
        if (bytes.byteLength > RESOURCE_TEXT_MAX_BYTES || bytes.includes(0)) continue;
        try {
          out.set(name, new TextDecoder("utf-8", { fatal: true }).decode(bytes));
        } catch {
          // not text: nothing the agent reads as instructions
        }
      }
    }
  };
  walk("");
  return out;
}

const countNewlines = (s: string) => s.split("\n").length - 1;
