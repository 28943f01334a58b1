// The integrity hash: sha256 over the RFC 8785 canonical JSON of a document with its defaults
// applied and its `integrity` field removed. Code resources and tools are ordinary members of the
// document, so an edit to instructions, code or a tool's `net` changes the hash.
import { createHash } from "node:crypto";
import { canonicalJson } from "./canonical-json";
import { MEM_BYTES_DEFAULT, NET_DEFAULT, WALL_MS_DEFAULT } from "./limits";

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

/**
 * A copy of the document with the contract's defaults filled in (a tool's `net: "deny"`,
 * `limits.wall_ms: 10000`, `limits.mem_bytes: 134217728`). Never mutates its input; tolerates
 * malformed input by leaving what it does not recognise alone, so it is safe before validation.
 */
export function applyDefaults<T>(doc: T): T {
  const copy = structuredClone(doc);
  if (!isObject(copy) || !Array.isArray(copy.tools)) return copy;
  for (const tool of copy.tools) {
    if (!isObject(tool)) continue;
    if (tool.net === undefined) tool.net = NET_DEFAULT;
    if (tool.limits === undefined) tool.limits = {};
    if (isObject(tool.limits)) {
      if (tool.limits.wall_ms === undefined) tool.limits.wall_ms = WALL_MS_DEFAULT;
      if (tool.limits.mem_bytes === undefined) tool.limits.mem_bytes = MEM_BYTES_DEFAULT;
    }
  }
  return copy;
}

export function sha256Hex(data: string | Uint8Array): string {
  return createHash("sha256").update(data).digest("hex");
}

/** The canonical bytes the integrity hash is taken over. */
export function canonicalContent(doc: unknown): string {
  const withDefaults = applyDefaults(doc);
  if (isObject(withDefaults)) delete withDefaults.integrity;
  return canonicalJson(withDefaults);
}

/** `sha256:<64 lowercase hex>` of the document's canonical content. */
export function computeIntegrity(doc: unknown): string {
  return "sha256:" + sha256Hex(canonicalContent(doc));
}
