// The instruction audit's public surface: audit a published document (the scan job and the
// rescan), a SKILL.md folder (openvibe-scan), and the words for what a prompt skill asks for.
import { SKILL_MD } from "../registry/skill-md";
import { splitSkillMd } from "../registry/skill-md-front-matter";
import { auditInstructions, type InstructionAudit } from "./audit";

export { auditInstructions, loadInstructionParsers, ASK_WORDS, type InstructionAudit, type ScriptAudit } from "./audit";
export { INSTRUCTION_RULES, type AuditFinding, type InstructionRuleId } from "./rules";
export { scanSkillMdFolder, isSkillMdDir, type SkillMdFolderScan } from "./scan-skill-md-folder";

type DocumentLike = {
  instructions: string;
  resources: readonly { name: string; text: string }[];
  tools?: readonly { entry: string }[];
};

/** Audits a document as published: its SKILL.md's front matter when it was imported from one. */
export function auditSkillDocument(doc: DocumentLike): InstructionAudit {
  const skillMd = doc.resources.find((r) => r.name === SKILL_MD)?.text;
  const split = skillMd ? splitSkillMd(skillMd) : null;
  const imported = split && !("code" in split) ? split : null;
  return auditInstructions({
    instructions: doc.instructions,
    instructionsResource: imported ? SKILL_MD : "instructions",
    instructionsLine: imported && skillMd ? 1 + skillMd.slice(0, skillMd.length - imported.body.length).split("\n").length - 1 : 1,
    frontMatter: imported?.frontMatter ?? null,
    resources: doc.resources,
    toolEntries: new Set((doc.tools ?? []).map((t) => t.entry)),
  });
}
