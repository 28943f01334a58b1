// MCP tool names for installed skills' tools: `<slug>__<tool>`, at most 64 characters (what most
// clients accept), the same on every call for the same installs. A slug contains no `_`, so the
// first `__` always separates it from the tool; a name too long keeps the tool whole and shortens
// the slug with a hash of the full pair, and any collision left gets a numbered suffix in a fixed order.
import { createHash } from "node:crypto";

export const MCP_TOOL_NAME_MAX = 64;
const SEPARATOR = "__";
const HASH_CHARS = 8;

export type ToolRef = { slug: string; tool: string };

function baseName({ slug, tool }: ToolRef): string {
  const full = `${slug}${SEPARATOR}${tool}`;
  if (full.length <= MCP_TOOL_NAME_MAX) return full;
  const hash = createHash("sha256").update(`${slug}@${tool}`).digest("hex").slice(0, HASH_CHARS);
  const room = MCP_TOOL_NAME_MAX - SEPARATOR.length - tool.length - HASH_CHARS - 1;
  return `${slug.slice(0, room).replace(/-+$/, "")}-${hash}${SEPARATOR}${tool}`;
}

/** One name per ref, in the refs' order; unique among them whatever the input order. */
export function mcpToolNames(refs: ToolRef[]): string[] {
  const order = refs
    .map((ref, i) => ({ ref, i, base: baseName(ref) }))
    .sort((a, b) => cmp(a.ref.slug, b.ref.slug) || cmp(a.ref.tool, b.ref.tool));
  const taken = new Set<string>();
  const names: string[] = new Array(refs.length);
  for (const { i, base } of order) {
    let name = base;
    for (let n = 2; taken.has(name); n++) {
      const suffix = `-${n}`;
      name = `${base.slice(0, MCP_TOOL_NAME_MAX - suffix.length)}${suffix}`;
    }
    taken.add(name);
    names[i] = name;
  }
  return names;
}

const cmp = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
