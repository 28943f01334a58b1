// The front matter of an Agent Skills SKILL.md: the YAML between the opening and closing `---`
// lines, parsed by the maintained `yaml` library with every alias refused and duplicate keys
// refused, within a size cap. Pure: shared by the CLI, the publish API and the /publish page.
import { parseDocument } from "yaml";
import { z } from "zod";
import { SEMVER_PATTERN } from "../contracts/limits";

/** Most bytes of YAML front matter we read; the Agent Skills fields fit in a fraction of it. */
export const FRONT_MATTER_MAX_CHARS = 16 * 1024;
/** The Agent Skills specification's caps on `name` and `description`. */
export const SKILL_MD_NAME_MAX = 64;
export const SKILL_MD_DESCRIPTION_MAX = 1024;

export type SplitSkillMd = { frontMatter: string; body: string };
export type FrontMatterProblem = { field: string; code: string; message: string };

const DELIMITER = "---";

/** Splits SKILL.md into its front matter and its body, or says why it cannot. */
export function splitSkillMd(text: string): SplitSkillMd | FrontMatterProblem {
  const start = text.startsWith("\uFEFF") ? 1 : 0;
  const firstEnd = text.indexOf("\n", start);
  if (firstEnd < 0 || stripCr(text.slice(start, firstEnd)).trimEnd() !== DELIMITER) {
    return {
      field: "",
      code: "skill_md.front_matter_missing",
      message: "SKILL.md must start with YAML front matter between two `---` lines (name and description).",
    };
  }
  // Walk line by line (no regular expression over the author's text) up to the cap.
  let lineStart = firstEnd + 1;
  while (lineStart <= text.length) {
    if (lineStart - firstEnd > FRONT_MATTER_MAX_CHARS) break;
    const nl = text.indexOf("\n", lineStart);
    const lineEnd = nl < 0 ? text.length : nl;
    if (stripCr(text.slice(lineStart, lineEnd)).trimEnd() === DELIMITER) {
      const frontMatter = text.slice(firstEnd + 1, lineStart);
      let body = nl < 0 ? "" : text.slice(nl + 1);
      // One blank line after the closing `---` is layout, not instructions.
      if (body.startsWith("\r\n")) body = body.slice(2);
      else if (body.startsWith("\n")) body = body.slice(1);
      return { frontMatter, body };
    }
    if (nl < 0) break;
    lineStart = nl + 1;
  }
  return {
    field: "",
    code: "skill_md.front_matter_unclosed",
    message: `SKILL.md's front matter has no closing \`---\` line within its first ${FRONT_MATTER_MAX_CHARS} characters.`,
  };
}

const stripCr = (line: string) => (line.endsWith("\r") ? line.slice(0, -1) : line);

const metadataValue = z.union([z.string(), z.number(), z.boolean(), z.null()]);
const frontMatterSchema = z.looseObject({
  name: z.string({ error: "is required: the skill's name, lowercase letters, digits and hyphens" }),
  description: z.string({ error: "is required: what the skill does and when to use it" }),
  license: z.string().optional(),
  compatibility: z.string().optional(),
  "allowed-tools": z.union([z.string(), z.array(z.string())]).optional(),
  metadata: z.record(z.string(), metadataValue, { error: "must be a map of names to text values" }).optional(),
});

export type SkillMdFrontMatter = {
  name: string;
  description: string;
  /** `metadata.version`, when stated. */
  version?: string;
  /** `metadata.openvibe-name`: the display name OpenVibe shows (the skill's name otherwise). */
  displayName?: string;
};

/** Parses and checks the front matter's YAML; every problem is returned at once. */
export function parseFrontMatter(yamlText: string): { ok: true; value: SkillMdFrontMatter } | { ok: false; problems: FrontMatterProblem[] } {
  const doc = parseDocument(yamlText, { uniqueKeys: true, strict: true, prettyErrors: false, version: "1.2" });
  if (doc.errors.length) {
    return {
      ok: false,
      problems: doc.errors.slice(0, 5).map((e) => ({
        field: "",
        code: "skill_md.front_matter_invalid",
        message: `The front matter is not valid YAML: ${firstLine(e.message)}`,
      })),
    };
  }
  let data: unknown;
  try {
    // No aliases at all: front matter never needs them, and they are how YAML bombs expand.
    data = doc.toJS({ maxAliasCount: 0 });
  } catch (err) {
    return {
      ok: false,
      problems: [{ field: "", code: "skill_md.front_matter_invalid", message: `The front matter is refused: ${(err as Error).message}.` }],
    };
  }
  const parsed = frontMatterSchema.safeParse(data ?? {});
  if (!parsed.success) {
    return {
      ok: false,
      problems: parsed.error.issues.map((i) => ({
        field: i.path.join("."),
        code: "skill_md.front_matter_invalid",
        message: `${i.path.join(".") || "The front matter"} ${i.message}`,
      })),
    };
  }
  const fm = parsed.data;
  const problems: FrontMatterProblem[] = [];
  if (fm.name.length > SKILL_MD_NAME_MAX) {
    problems.push({ field: "name", code: "skill_md.name_invalid", message: `name is at most ${SKILL_MD_NAME_MAX} characters.` });
  }
  const description = fm.description;
  if (!description.trim() || description.length > SKILL_MD_DESCRIPTION_MAX) {
    problems.push({
      field: "description",
      code: "skill_md.description_invalid",
      message: `description is 1 to ${SKILL_MD_DESCRIPTION_MAX} characters: what the skill does and when to use it.`,
    });
  }
  const rawVersion = fm.metadata?.version;
  if (rawVersion !== undefined && rawVersion !== null && (typeof rawVersion !== "string" || !SEMVER.test(rawVersion))) {
    problems.push({
      field: "metadata.version",
      code: "skill_md.version_invalid",
      message: `metadata.version must be a full version in quotes, e.g. "1.0.0" (it is ${JSON.stringify(rawVersion)}).`,
    });
  }
  const displayName = fm.metadata?.["openvibe-name"];
  if (displayName !== undefined && (typeof displayName !== "string" || !displayName.trim() || displayName.length > 80)) {
    problems.push({ field: "metadata.openvibe-name", code: "skill_md.name_invalid", message: "metadata.openvibe-name is 1 to 80 characters of text." });
  }
  if (problems.length) return { ok: false, problems };
  return {
    ok: true,
    value: {
      name: fm.name,
      description,
      ...(typeof rawVersion === "string" ? { version: rawVersion } : {}),
      ...(typeof displayName === "string" ? { displayName } : {}),
    },
  };
}

const SEMVER = new RegExp(SEMVER_PATTERN);
const firstLine = (s: string) => s.split("\n")[0] ?? s;
