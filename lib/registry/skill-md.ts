// Agent Skills folders in and out. A folder whose root has SKILL.md (and no skill.json) becomes an
// actor.skill@1 document: the front matter's `name` is the slug, its `description` the summary, the
// body the instructions and every other file a resource. Its SKILL.md is kept byte for byte as a
// resource unless it is exactly what OpenVibe would write for that document, so a downloaded
// folder republishes to the same integrity. Pure: shared by the CLI, the publish API and /publish.
import {
  RESOURCES_MAX,
  RESOURCE_NAME_PATTERN,
  RESOURCE_TEXT_MAX_BYTES,
  SEMVER_PATTERN,
  SUMMARY_MAX_LENGTH,
  validateSkillDocument,
  type ContractError,
  type Resource,
  type Result,
  type SkillDocument,
} from "../contracts";
import { parseFrontMatter, splitSkillMd } from "./skill-md-front-matter";

export const SKILL_MD = "SKILL.md";
const MANIFEST = "skill.json";

/** The codes an Agent Skills folder is refused with (each inside a `contract.invalid` 422). */
export const SKILL_MD_ERROR_CODES = [
  "skill_md.front_matter_missing",
  "skill_md.front_matter_unclosed",
  "skill_md.front_matter_invalid",
  "skill_md.name_invalid",
  "skill_md.description_invalid",
  "skill_md.version_required",
  "skill_md.version_invalid",
  "skill_md.version_conflict",
  "skill_md.instructions_missing",
  "skill_md.file_not_text",
  "skill_md.file_too_large",
  "skill_md.file_name_invalid",
  "skill_md.too_many_files",
] as const;
export type SkillMdErrorCode = (typeof SKILL_MD_ERROR_CODES)[number];

export type SkillMdOptions = { version?: string };

/** True for a folder that publishes through SKILL.md: SKILL.md at its root and no skill.json. */
export function isSkillMdFolder(files: { has(path: string): boolean }): boolean {
  return files.has(SKILL_MD) && !files.has(MANIFEST);
}

/** Editor and OS clutter is never part of a skill (.DS_Store, .git/…, __MACOSX/…). */
export function isClutter(path: string): boolean {
  return path.split("/").some((seg) => seg.startsWith(".") || seg === "__MACOSX");
}

const RESOURCE_NAME = new RegExp(RESOURCE_NAME_PATTERN);
const SEMVER = new RegExp(SEMVER_PATTERN);
const problem = (path: string, code: SkillMdErrorCode, message: string): ContractError => ({ path, code, message });

/**
 * The document an Agent Skills folder publishes as, validated like any other document, or every
 * problem at once. `options.version` is `--version` (or the page's version field).
 */
export function documentFromSkillMd(files: ReadonlyMap<string, Uint8Array>, options: SkillMdOptions = {}): Result<SkillDocument> {
  const errors: ContractError[] = [];
  const skillMdBytes = files.get(SKILL_MD);
  if (!skillMdBytes) return { ok: false, errors: [problem(SKILL_MD, "skill_md.front_matter_missing", "The folder has no SKILL.md at its root.")] };
  const skillMd = decode(SKILL_MD, skillMdBytes, errors);
  const resources = readResources(files, errors);
  if (skillMd === null) return { ok: false, errors };

  const split = splitSkillMd(skillMd);
  if ("code" in split) return { ok: false, errors: [problem(SKILL_MD, split.code as SkillMdErrorCode, split.message), ...errors] };
  const fm = parseFrontMatter(split.frontMatter);
  if (!fm.ok) {
    return { ok: false, errors: [...fm.problems.map((p) => problem(at(p.field), p.code as SkillMdErrorCode, p.message)), ...errors] };
  }
  const version = chooseVersion(fm.value.version, options.version, errors);
  if (!split.body.trim()) {
    errors.push(problem(SKILL_MD, "skill_md.instructions_missing", "SKILL.md has no instructions after its front matter."));
  }
  if (errors.length || !version) return { ok: false, errors };

  const base = {
    contract: "actor.skill@1" as const,
    slug: fm.value.name,
    version,
    name: fm.value.displayName ?? fm.value.name,
    summary: shortSummary(fm.value.description),
    instructions: split.body,
    requires: { kinds: [] as string[] },
  };
  // Exactly what OpenVibe writes for this document needs no copy; anything else is kept as is.
  const canonical = skillMdText({ ...base, resources });
  const withSkillMd = canonical === skillMd ? resources : sortResources([...resources, { name: SKILL_MD, media_type: "text/markdown", text: skillMd }]);
  if (withSkillMd.length > RESOURCES_MAX) {
    return {
      ok: false,
      errors: [problem("", "skill_md.too_many_files", `A skill has at most ${RESOURCES_MAX} files besides its instructions (this folder has ${withSkillMd.length}).`)],
    };
  }
  const result = validateSkillDocument({ ...base, resources: withSkillMd });
  if (result.ok) return result;
  return { ok: false, errors: result.errors.map((e) => ({ ...e, path: folderPath(e.path, withSkillMd) })) };
}

function chooseVersion(stated: string | undefined, given: string | undefined, errors: ContractError[]): string | null {
  if (given !== undefined && !SEMVER.test(given)) {
    errors.push(problem("--version", "skill_md.version_invalid", `"${given}" is not a version: write it like 1.0.0.`));
    return null;
  }
  if (stated && given && stated !== given) {
    errors.push(
      problem(
        `${SKILL_MD}: metadata.version`,
        "skill_md.version_conflict",
        `SKILL.md says version ${stated} and you asked for ${given}: change one so they agree, or drop --version.`,
      ),
    );
    return null;
  }
  const version = stated ?? given;
  if (!version) {
    errors.push(
      problem(
        `${SKILL_MD}: metadata.version`,
        "skill_md.version_required",
        'SKILL.md states no version: add `metadata: { version: "1.0.0" }` to its front matter, or publish with --version 1.0.0. OpenVibe never guesses one.',
      ),
    );
    return null;
  }
  return version;
}

function readResources(files: ReadonlyMap<string, Uint8Array>, errors: ContractError[]): Resource[] {
  const out: Resource[] = [];
  for (const [name, bytes] of files) {
    if (name === SKILL_MD || isClutter(name)) continue;
    if (!RESOURCE_NAME.test(name) || name.length > 128) {
      errors.push(problem(name, "skill_md.file_name_invalid", "A file name is letters, digits, `_`, `.` and `-` in plain folders (at most 128 characters)."));
      continue;
    }
    const text = decode(name, bytes, errors);
    if (text !== null) out.push({ name, media_type: mediaTypeOf(name), text });
  }
  return sortResources(out);
}

/** A file's text as import reads it, or null with the reason import refuses it pushed to `errors`. */
export function decode(name: string, bytes: Uint8Array, errors: ContractError[]): string | null {
  if (bytes.byteLength > RESOURCE_TEXT_MAX_BYTES) {
    errors.push(problem(name, "skill_md.file_too_large", `${name} is over ${RESOURCE_TEXT_MAX_BYTES} bytes; each file of a skill is at most 64 KiB.`));
    return null;
  }
  if (bytes.includes(0)) {
    errors.push(problem(name, "skill_md.file_not_text", `${name} is binary: a skill holds only text files (UTF-8).`));
    return null;
  }
  try {
    // ignoreBOM keeps a leading BOM as text, so the text re-encodes to exactly the file's bytes.
    return new TextDecoder("utf-8", { fatal: true, ignoreBOM: true }).decode(bytes);
  } catch {
    errors.push(problem(name, "skill_md.file_not_text", `${name} is not valid UTF-8 text.`));
    return null;
  }
}

/** The media type a file of an Agent Skills folder publishes with, by its extension. */
export function mediaTypeOf(name: string): Resource["media_type"] {
  const lower = name.toLowerCase();
  if (lower.endsWith(".md") || lower.endsWith(".markdown")) return "text/markdown";
  if (lower.endsWith(".csv")) return "text/csv";
  if (lower.endsWith(".json")) return "application/json";
  return "text/plain";
}

const sortResources = (list: Resource[]) => [...list].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));

/** Agent Skills allow a 1024-character description; a summary is at most 280, cut at a word. */
export function shortSummary(description: string): string {
  if ([...description].length <= SUMMARY_MAX_LENGTH) return description;
  const chars = [...description.replace(/\s+/g, " ").trim()];
  if (chars.length <= SUMMARY_MAX_LENGTH) return chars.join("");
  const cut = chars.slice(0, SUMMARY_MAX_LENGTH - 1).join("");
  const space = cut.lastIndexOf(" ");
  return `${(space > SUMMARY_MAX_LENGTH / 2 ? cut.slice(0, space) : cut).trimEnd()}…`;
}

const at = (field: string) => (field ? `${SKILL_MD}: ${field}` : SKILL_MD);

/** A document error's JSON pointer, in the words of the folder the author has in front of them. */
function folderPath(pointer: string, resources: Resource[]): string {
  const m = /^\/resources\/(\d+)/.exec(pointer);
  if (m) return resources[Number(m[1])]?.name ?? pointer;
  if (pointer === "/slug") return at("name");
  if (pointer === "/summary") return at("description");
  if (pointer === "/name") return at("metadata.openvibe-name");
  if (pointer.startsWith("/instructions")) return `${SKILL_MD} (its body)`;
  return pointer;
}

type PromptDoc = Pick<SkillDocument, "slug" | "version" | "name" | "summary" | "instructions" | "resources">;

/** The SKILL.md OpenVibe writes for a document that was not imported from one. */
export function skillMdText(doc: PromptDoc): string {
  // JSON strings are valid YAML double-quoted scalars, so every value reads back exactly.
  const lines = ["---", `name: ${JSON.stringify(doc.slug)}`, `description: ${JSON.stringify(doc.summary)}`, "metadata:"];
  lines.push(`  version: ${JSON.stringify(doc.version)}`);
  if (doc.name !== doc.slug) lines.push(`  openvibe-name: ${JSON.stringify(doc.name)}`);
  lines.push("---", "", doc.instructions);
  return lines.join("\n");
}

/** A skill imported from SKILL.md keeps it as a resource; the page says so. */
export function isImportedFromSkillMd(doc: Pick<SkillDocument, "resources">): boolean {
  return doc.resources.some((r) => r.name === SKILL_MD);
}

/** The Agent Skills folder of a prompt skill: SKILL.md and every resource, as `path → bytes`. */
export function skillMdFolder(doc: PromptDoc): Map<string, Uint8Array> {
  const files = new Map<string, Uint8Array>();
  const encoder = new TextEncoder();
  const own = doc.resources.find((r) => r.name === SKILL_MD);
  files.set(SKILL_MD, encoder.encode(own ? own.text : skillMdText(doc)));
  for (const r of doc.resources) if (r.name !== SKILL_MD) files.set(r.name, encoder.encode(r.text));
  return files;
}
