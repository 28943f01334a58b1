// `openvibe-scan DIR` for an Agent Skills folder (SKILL.md at its root): the instruction audit of
// its SKILL.md and every other text file, in the code scanner's folder shape. A folder that is not
// a readable SKILL.md folder is `invalid`. Call loadInstructionParsers() once before.
import { closeSync, openSync, readdirSync, readSync, statSync } from "node:fs";
import path from "node:path";
import { RESOURCE_TEXT_MAX_BYTES, type ContractError } from "../contracts";
import { decode, isClutter, SKILL_MD } from "../registry/skill-md";
import { splitSkillMd } from "../registry/skill-md-front-matter";
import { auditInstructions, type InstructionAudit } from "./audit";
import type { AuditFinding } from "./rules";

export type SkillMdFolderScan = {
  file: string;
  verdict: "passed" | "flagged" | "failed" | "invalid";
  tools: { name: string; verdict: string; findings: AuditFinding[] }[];
  findings: AuditFinding[];
  instructions: Pick<InstructionAudit, "asks" | "scripts"> & { verdict: InstructionAudit["verdict"] };
  /** Why the registry would refuse the folder, in the words of its import (with `invalid`). */
  errors?: ContractError[];
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
  const invalid = (errors: ContractError[]): SkillMdFolderScan => ({
    file: dir,
    verdict: "invalid",
    tools: [],
    findings: [],
    instructions: { verdict: "passed", asks: [], scripts: [] },
    errors,
  });
  const refused: ContractError[] = [];
  const files = readTextFiles(dir, refused);
  const skillMd = files.get(SKILL_MD);
  const skillMdProblem = refused.find((p) => p.path === SKILL_MD);
  if (skillMdProblem) return invalid(refused);
  if (skillMd === undefined) {
    return invalid([
      { path: SKILL_MD, code: "skill_md.front_matter_missing", message: "The folder has no SKILL.md at its root." },
    ]);
  }
  const split = splitSkillMd(skillMd);
  if ("code" in split) return invalid([{ path: SKILL_MD, code: split.code, message: split.message }, ...refused]);
  const bodyAt = skillMd.length - split.body.length;
  const audit = auditInstructions({
    instructions: split.body,
    instructionsResource: SKILL_MD,
    instructionsLine: 1 + countNewlines(skillMd.slice(0, bodyAt)),
    frontMatter: split.frontMatter,
    resources: [...files].filter(([name]) => name !== SKILL_MD).map(([name, text]) => ({ name, text })),
  });
  // What it can read is still audited; a hostile folder fails whatever else is wrong with it.
  const unpublishable = refused.length > 0 && audit.verdict !== "failed";
  return {
    file: dir,
    verdict: unpublishable ? "invalid" : audit.verdict,
    tools: [],
    findings: audit.findings,
    instructions: { verdict: audit.verdict, asks: audit.asks, scripts: audit.scripts },
    ...(unpublishable ? { errors: refused } : {}),
  };
}

/** Every file of the folder as import reads it, by its path inside it; what import refuses goes to `refused`. */
function readTextFiles(dir: string, refused: ContractError[]): Map<string, string> {
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
        const text = decode(name, readAtMost(path.join(dir, name), RESOURCE_TEXT_MAX_BYTES + 1), refused);
        if (text !== null) out.set(name, text);
      }
    }
  };
  walk("");
  return out;
}

/** The first `max` bytes of a file: enough to tell it is too large without reading all of it. */
function readAtMost(file: string, max: number): Uint8Array {
  const buf = Buffer.alloc(max);
  const fd = openSync(file, "r");
  try {
    let n = 0;
    for (let got = -1; got !== 0 && n < max; n += got) got = readSync(fd, buf, n, max - n, null);
    return buf.subarray(0, n);
  } finally {
    closeSync(fd);
  }
}

const countNewlines = (s: string) => s.split("\n").length - 1;
