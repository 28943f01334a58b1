// The rules a JSON Schema cannot state, checked beside the schemas. They run on any input, valid
// or not, so that one pass reports every problem; each guards the types it relies on.
import {
  ARGS_PATTERN_MAX_LENGTH,
  CODE_EXTENSION,
  CODE_MEDIA_TYPE,
  CODE_RESOURCE_MAX_BYTES,
  FORBIDDEN_FIELD_NAMES,
  INSTRUCTIONS_MAX_BYTES,
  RESOURCE_TEXT_MAX_BYTES,
  SKILL_RUN_KIND,
  SKILL_V1,
} from "./limits";
import { sha256Hex } from "./integrity";
import { linearPatternProblem } from "./tool-args";
import type { ContractError, Listing, SkillDocument } from "./types";

type Obj = Record<string, unknown>;
const isObject = (v: unknown): v is Obj => typeof v === "object" && v !== null && !Array.isArray(v);
const pointer = (...parts: (string | number)[]) =>
  parts.map((p) => "/" + String(p).replaceAll("~", "~0").replaceAll("/", "~1")).join("");
const utf8Bytes = (s: string) => Buffer.byteLength(s, "utf8");

/** Text is UTF-8-encodable (no lone surrogate) and has no NUL: what "not binary" means here. */
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;
export function isText(s: string): boolean {
  return !LONE_SURROGATE.test(s) && !s.includes("\u0000");
}

export const isCodeResource = (r: { media_type?: unknown }) => r.media_type === CODE_MEDIA_TYPE;

/** `runs` as the document means it: @1 is always a prompt skill. */
function runsOf(doc: Obj): unknown {
  return doc.contract === SKILL_V1 ? "prompt" : doc.runs;
}

export function checkSkillRules(doc: unknown): ContractError[] {
  if (!isObject(doc)) return [];
  return [
    ...forbiddenFields(doc, ""),
    ...instructionsRules(doc),
    ...resourceRules(doc),
    ...kindsRule(doc),
    ...toolRules(doc),
  ];
}

const FORBIDDEN = new Set<string>(FORBIDDEN_FIELD_NAMES);

// Instructions and resource text have rules (and codes) of their own.
const OWN_TEXT_RULE = /^\/(instructions|resources\/\d+\/text)$/;

function forbiddenFields(value: unknown, path: string): ContractError[] {
  if (typeof value === "string") {
    // PostgreSQL stores neither a NUL nor a lone surrogate: refuse them here, not with a 500 there.
    if (isText(value) || OWN_TEXT_RULE.test(path)) return [];
    return [{ path, code: "contract.field_not_text", message: "Text fields hold valid UTF-8 with no NUL." }];
  }
  if (Array.isArray(value)) return value.flatMap((v, i) => forbiddenFields(v, `${path}${pointer(i)}`));
  if (!isObject(value)) return [];
  return Object.entries(value).flatMap(([k, v]) => {
    const here = `${path}${pointer(k)}`;
    const badKey: ContractError[] = isText(k)
      ? []
      : [{ path: here, code: "contract.field_not_text", message: "Field names hold valid UTF-8 with no NUL." }];
    const own: ContractError[] = FORBIDDEN.has(k.toLowerCase())
      ? [
          {
            path: here,
            code: "contract.forbidden_field",
            message: `No field may be named "${k}": a skill never carries or asks for a secret.`,
          },
        ]
      : [];
    return [...badKey, ...own, ...forbiddenFields(v, here)];
  });
}

function instructionsRules(doc: Obj): ContractError[] {
  const text = doc.instructions;
  if (typeof text !== "string") return [];
  const errors: ContractError[] = [];
  if (!isText(text)) {
    errors.push({
      path: "/instructions",
      code: "contract.instructions_not_text",
      message: "Instructions must be text: valid UTF-8 with no NUL.",
    });
  }
  // Longer than the cap in characters is already a schema error; here the cap is in UTF-8 bytes.
  if (text.length <= INSTRUCTIONS_MAX_BYTES && utf8Bytes(text) > INSTRUCTIONS_MAX_BYTES) {
    errors.push({
      path: "/instructions",
      code: "contract.instructions_too_large",
      message: `Instructions are over ${INSTRUCTIONS_MAX_BYTES} bytes of UTF-8.`,
    });
  }
  return errors;
}

function resourceRules(doc: Obj): ContractError[] {
  if (!Array.isArray(doc.resources)) return [];
  const errors: ContractError[] = [];
  const seen = new Set<string>();
  const runs = runsOf(doc);
  doc.resources.forEach((r, i) => {
    if (!isObject(r)) return;
    const { name, media_type: mediaType, text } = r;
    if (typeof name === "string") {
      if (seen.has(name)) {
        errors.push({
          path: pointer("resources", i, "name"),
          code: "contract.resource_duplicate",
          message: `Another resource is already named "${name}".`,
        });
      }
      seen.add(name);
    }
    const code = mediaType === CODE_MEDIA_TYPE;
    const jsName = typeof name === "string" && name.endsWith(CODE_EXTENSION);
    if (typeof name === "string" && typeof mediaType === "string" && code !== jsName) {
      errors.push({
        path: pointer("resources", i, code ? "name" : "media_type"),
        code: "contract.code_resource_invalid",
        message: `Code is a resource named *${CODE_EXTENSION} with media_type ${CODE_MEDIA_TYPE}, both or neither.`,
      });
    }
    if ((code || jsName) && runs === "prompt") {
      errors.push({
        path: pointer("resources", i),
        code: "contract.code_not_allowed",
        message: 'Only a skill with runs: "sandbox" (actor.skill@2) carries code.',
      });
    }
    if (typeof text === "string") {
      if (!isText(text)) {
        errors.push({
          path: pointer("resources", i, "text"),
          code: "contract.resource_not_text",
          message: "A resource must be text: valid UTF-8 with no NUL.",
        });
      }
      const cap = code ? CODE_RESOURCE_MAX_BYTES : RESOURCE_TEXT_MAX_BYTES;
      if (text.length <= cap && utf8Bytes(text) > cap) {
        errors.push({
          path: pointer("resources", i, "text"),
          code: "contract.resource_too_large",
          message: `This resource is over ${cap} bytes of UTF-8.`,
        });
      }
    }
  });
  return errors;
}

function kindsRule(doc: Obj): ContractError[] {
  const runs = runsOf(doc);
  const kinds = isObject(doc.requires) ? doc.requires.kinds : undefined;
  if (!Array.isArray(kinds) || (runs !== "prompt" && runs !== "sandbox")) return [];
  const declares = kinds.includes(SKILL_RUN_KIND);
  if (runs === "sandbox" && !declares) {
    return [
      {
        path: "/requires/kinds",
        code: "contract.kinds_mismatch",
        message: `A sandbox skill declares "${SKILL_RUN_KIND}" in requires.kinds.`,
      },
    ];
  }
  if (runs === "prompt" && declares) {
    return [
      {
        path: "/requires/kinds",
        code: "contract.kinds_mismatch",
        message: `A prompt skill may not declare "${SKILL_RUN_KIND}".`,
      },
    ];
  }
  return [];
}

function toolRules(doc: Obj): ContractError[] {
  const runs = runsOf(doc);
  if (doc.tools === undefined && runs === "sandbox") {
    return [{ path: "/tools", code: "contract.tools_required", message: "A sandbox skill has 1 to 5 tools." }];
  }
  if (doc.tools !== undefined && runs === "prompt") {
    return [
      {
        path: "/tools",
        code: "contract.tools_not_allowed",
        message: 'Only a skill with runs: "sandbox" carries tools.',
      },
    ];
  }
  if (!Array.isArray(doc.tools)) return [];
  const resources = new Map<string, Obj>();
  if (Array.isArray(doc.resources)) {
    for (const r of doc.resources)
      if (isObject(r) && typeof r.name === "string" && !resources.has(r.name)) resources.set(r.name, r);
  }
  const errors: ContractError[] = [];
  const names = new Set<string>();
  doc.tools.forEach((tool, i) => {
    if (!isObject(tool)) return;
    if (typeof tool.name === "string") {
      if (names.has(tool.name)) {
        errors.push({
          path: pointer("tools", i, "name"),
          code: "contract.tool_duplicate",
          message: `Another tool is already named "${tool.name}".`,
        });
      }
      names.add(tool.name);
    }
    if (typeof tool.entry === "string") {
      const target = resources.get(tool.entry);
      if (!target) {
        errors.push({
          path: pointer("tools", i, "entry"),
          code: "contract.entry_unknown",
          message: `No resource is named "${tool.entry}".`,
        });
      } else if (!isCodeResource(target)) {
        errors.push({
          path: pointer("tools", i, "entry"),
          code: "contract.entry_not_code",
          message: `"${tool.entry}" is not a code resource (${CODE_MEDIA_TYPE}).`,
        });
      }
    }
    const args = tool.args;
    errors.push(...argsPatternRules(args, pointer("tools", i, "args")));
    if (isObject(args) && Array.isArray(args.required)) {
      const props = isObject(args.properties) ? args.properties : {};
      args.required.forEach((req, j) => {
        if (typeof req === "string" && !Object.hasOwn(props, req)) {
          errors.push({
            path: pointer("tools", i, "args", "required", j),
            code: "contract.args_required_unknown",
            message: `"${req}" is required but not among the properties.`,
          });
        }
      });
    }
  });
  return errors;
}

/** Each argument's `pattern` (and its items' when it is a list) must compile on the linear engine. */
function argsPatternRules(args: unknown, path: string): ContractError[] {
  if (!isObject(args) || !isObject(args.properties)) return [];
  const errors: ContractError[] = [];
  for (const [name, prop] of Object.entries(args.properties)) {
    if (!isObject(prop)) continue;
    const candidates: [unknown, string][] = [[prop.pattern, pointer("properties", name, "pattern")]];
    if (isObject(prop.items)) candidates.push([prop.items.pattern, pointer("properties", name, "items", "pattern")]);
    for (const [pattern, at] of candidates) {
      // Over-long patterns are already a schema error; compiling them is wasted work.
      if (typeof pattern !== "string" || pattern.length > ARGS_PATTERN_MAX_LENGTH) continue;
      const problem = linearPatternProblem(pattern);
      if (problem) errors.push({ path: `${path}${at}`, code: "contract.args_pattern_unsupported", message: problem });
    }
  }
  return errors;
}

/**
 * The listing rules, given a listing that passed its schema and the skill document (validated,
 * integrity computed) it lists: the same contract generation and identity; a @2 listing pins each
 * code resource exactly once with the sha256 of the document's own bytes; a sandbox listing without
 * code is invalid; findings name the document's tools and resources; status agrees with findings.
 */
export function checkListingRules(listing: Listing, doc: SkillDocument): ContractError[] {
  const errors: ContractError[] = [];
  const generation = (c: string) => c.slice(c.indexOf("@"));
  if (generation(listing.contract) !== generation(doc.contract)) {
    errors.push({
      path: "/contract",
      code: "contract.listing_contract_mismatch",
      message: `${listing.contract} lists actor.skill${generation(listing.contract)} documents, not ${doc.contract}.`,
    });
  }
  for (const field of ["slug", "version", "integrity"] as const) {
    if (listing.skill[field] !== doc[field]) {
      errors.push({
        path: pointer("skill", field),
        code: "contract.listing_skill_mismatch",
        message: `The listing's skill ${field} is not the document's (${doc[field]}).`,
      });
    }
  }

  const codeResources = new Map(doc.resources.filter(isCodeResource).map((r) => [r.name, r]));
  const sandbox = doc.contract === "actor.skill@2" && doc.runs === "sandbox";
  const pinned = listing.code ?? [];
  if (sandbox && pinned.length === 0) {
    errors.push({
      path: "/code",
      code: "contract.listing_code_missing",
      message: "A sandbox listing pins its code: one { name, media_id, sha256 } per code resource.",
    });
  }
  const seen = new Set<string>();
  pinned.forEach((entry, i) => {
    const resource = codeResources.get(entry.name);
    if (seen.has(entry.name)) {
      errors.push({
        path: pointer("code", i, "name"),
        code: "contract.listing_code_duplicate",
        message: `"${entry.name}" is pinned twice.`,
      });
      return;
    }
    seen.add(entry.name);
    if (!resource) {
      errors.push({
        path: pointer("code", i, "name"),
        code: "contract.listing_code_unknown",
        message: `The document has no code resource named "${entry.name}".`,
      });
      return;
    }
    const digest = sha256Hex(Buffer.from(resource.text, "utf8"));
    if (entry.sha256 !== digest) {
      errors.push({
        path: pointer("code", i, "sha256"),
        code: "contract.listing_code_digest_mismatch",
        message: `The pinned sha256 is not that of the document's "${entry.name}" (${digest}).`,
      });
    }
  });
  if (pinned.length > 0) {
    for (const name of codeResources.keys()) {
      if (!seen.has(name)) {
        errors.push({
          path: "/code",
          code: "contract.listing_code_missing",
          message: `Code resource "${name}" is not pinned.`,
        });
      }
    }
  }

  const tools = new Set(doc.contract === "actor.skill@2" ? (doc.tools ?? []).map((t) => t.name) : []);
  const resourceNames = new Set(doc.resources.map((r) => r.name));
  listing.findings.forEach((f, i) => {
    if (f.tool !== undefined && !tools.has(f.tool)) {
      errors.push({
        path: pointer("findings", i, "tool"),
        code: "contract.listing_finding_tool_unknown",
        message: `The document has no tool named "${f.tool}".`,
      });
    }
    if (!resourceNames.has(f.resource)) {
      errors.push({
        path: pointer("findings", i, "resource"),
        code: "contract.listing_finding_resource_unknown",
        message: `The document has no resource named "${f.resource}".`,
      });
    }
  });

  const fails = listing.findings.filter((f) => f.severity === "fail").length;
  const flags = listing.findings.length - fails;
  const expected = fails > 0 ? "failed" : flags > 0 ? "flagged" : "passed";
  const statusOk = listing.status === "scanning" ? listing.findings.length === 0 : listing.status === expected;
  if (!statusOk) {
    errors.push({
      path: "/status",
      code: "contract.listing_status_mismatch",
      message:
        listing.status === "scanning"
          ? "A listing still scanning has no findings yet."
          : `With these findings the status is "${expected}".`,
    });
  }
  if (listing.retired_at !== undefined && Date.parse(listing.retired_at) < Date.parse(listing.published_at)) {
    errors.push({
      path: "/retired_at",
      code: "contract.listing_dates",
      message: "A listing is retired after it was published.",
    });
  }
  return errors;
}
