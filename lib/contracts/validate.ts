// The two checks every edge uses: a skill document (schema + rules + integrity, all errors at once)
// and a listing against the skill document it lists.
import { CanonicalJsonError } from "./canonical-json";
import { applyDefaults, computeIntegrity } from "./integrity";
import { DOCUMENT_MAX_BYTES, INTEGRITY_PATTERN, LISTING_V1, LISTING_V2, SKILL_V1, SKILL_V2 } from "./limits";
import { checkListingRules, checkSkillRules } from "./rules";
import { schemaErrors } from "./schema";
import type { ContractError, Listing, Result, SkillDocument } from "./types";

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);
const fail = (path: string, code: string, message: string): { ok: false; errors: ContractError[] } => ({
  ok: false,
  errors: [{ path, code, message }],
});

export type ValidateOptions = {
  /** Refuse a document that does not state its integrity (a published document always does). */
  requireIntegrity?: boolean;
};

/**
 * Checks a skill document (actor.skill@1 or @2) and returns every schema and cross-field error at
 * once, or the document with defaults applied and `integrity` computed. A stated integrity that
 * does not match the content is refused. Input that is not JSON, over the size cap or of an
 * unknown contract stops at that one error: there is nothing sound to check further.
 */
export function validateSkillDocument(input: unknown, options: ValidateOptions = {}): Result<SkillDocument> {
  if (!isObject(input)) return fail("", "contract.schema", "A skill document is a JSON object.");
  const notJson = nonJsonValue(input, "", new Set());
  if (notJson) return fail(notJson.path, "contract.not_json", notJson.message);
  // Same size as the canonical form up to key order, which does not change the length.
  if (Buffer.byteLength(JSON.stringify(input), "utf8") > DOCUMENT_MAX_BYTES) {
    return fail("", "contract.document_too_large", `A skill document is at most ${DOCUMENT_MAX_BYTES} bytes.`);
  }
  const contract = input.contract;
  if (contract !== SKILL_V1 && contract !== SKILL_V2) {
    return fail("/contract", "contract.unsupported", `contract must be "${SKILL_V1}" or "${SKILL_V2}".`);
  }

  const errors = [...schemaErrors(contract, input), ...checkSkillRules(input)];
  let integrity: string;
  try {
    integrity = computeIntegrity(input);
  } catch (err) {
    if (!(err instanceof CanonicalJsonError)) throw err;
    // Only text that is not UTF-8 (a lone surrogate) gets here; the text rules may have said so already.
    if (!errors.some((e) => e.path === err.path))
      errors.push({ path: err.path, code: "contract.not_json", message: err.message });
    return { ok: false, errors };
  }
  const stated = input.integrity;
  if (typeof stated === "string" && new RegExp(INTEGRITY_PATTERN).test(stated) && stated !== integrity) {
    errors.push({
      path: "/integrity",
      code: "contract.integrity_mismatch",
      message: `The stated integrity does not match the content (${integrity}).`,
    });
  } else if (stated === undefined && options.requireIntegrity) {
    errors.push({
      path: "/integrity",
      code: "contract.integrity_required",
      message: "State the document's integrity.",
    });
  }
  if (errors.length > 0) return { ok: false, errors };
  return { ok: true, document: { ...applyDefaults(input), integrity } as SkillDocument };
}

/**
 * Checks a listing against its schema and against the skill document it lists (which is validated
 * too; its errors come back marked `in: "document"`).
 */
export function validateListing(listing: unknown, skillDoc: unknown): Result<Listing> {
  if (!isObject(listing)) return fail("", "contract.schema", "A listing is a JSON object.");
  const contract = listing.contract;
  if (contract !== LISTING_V1 && contract !== LISTING_V2) {
    return fail("/contract", "contract.unsupported", `contract must be "${LISTING_V1}" or "${LISTING_V2}".`);
  }
  const errors = schemaErrors(contract, listing);
  const doc = validateSkillDocument(skillDoc);
  if (!doc.ok) errors.push(...doc.errors.map((e) => ({ ...e, in: "document" as const })));
  if (errors.length > 0 || !doc.ok) return { ok: false, errors };
  const ruleErrors = checkListingRules(listing as Listing, doc.document);
  if (ruleErrors.length > 0) return { ok: false, errors: ruleErrors };
  return { ok: true, document: structuredClone(listing) as Listing };
}

/** The first value that JSON cannot carry (undefined, a function, NaN, a class instance, a cycle). */
/** Deeper than any field of a contract goes; past it the walk stops instead of the stack. */
const MAX_DOCUMENT_DEPTH = 32;

function nonJsonValue(
  value: unknown,
  path: string,
  ancestors: Set<object>,
  depth = 0,
): { path: string; message: string } | null {
  if (depth > MAX_DOCUMENT_DEPTH) return { path, message: `A skill document nests at most ${MAX_DOCUMENT_DEPTH} levels deep.` };
  if (value === null || typeof value === "string" || typeof value === "boolean") return null;
  if (typeof value === "number")
    return Number.isFinite(value) ? null : { path, message: `${value} is not a JSON number.` };
  if (typeof value !== "object") return { path, message: `A ${typeof value} is not JSON.` };
  if (ancestors.has(value)) return { path, message: "A cycle is not JSON." };
  const proto = Object.getPrototypeOf(value);
  if (!Array.isArray(value) && proto !== Object.prototype && proto !== null)
    return { path, message: "Only plain objects are JSON." };
  ancestors.add(value);
  const entries: [string, unknown][] = Array.isArray(value)
    ? value.map((v, i) => [String(i), v])
    : Object.entries(value);
  for (const [k, v] of entries) {
    const found = nonJsonValue(v, `${path}/${k.replaceAll("~", "~0").replaceAll("/", "~1")}`, ancestors, depth + 1);
    if (found) return found;
  }
  ancestors.delete(value);
  return null;
}
