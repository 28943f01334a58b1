// Where a module name a skill's code loads leads, inside the skill's own files, the way Node
// resolves it when the job runs from its folder: relative paths (with Node's extension and index
// rules) and bare packages under `node_modules/` from the asking file's folder up to the bundle's
// root. Anything else cannot be checked, so it is an answer with the rule that fails it.
import path from "node:path";
import type { RuleId } from "./rules";

export type Resolution = { ok: true; targets: string[] } | { ok: false; rule: RuleId };

const FILE_SUFFIXES = ["", ".js", ".json", ".mjs", ".cjs"];
const INDEX_FILES = ["index.js", "index.json", "index.mjs", "index.cjs"];

/** Resolves `spec` loaded from the resource `from` against the bundle's resource names. */
export function resolveModule(
  from: string,
  spec: string,
  has: (name: string) => boolean,
  packageJson: (name: string) => string | undefined,
): Resolution {
  if (spec === "" || spec.includes("\\") || spec.includes("\0") || /^[a-z][a-z0-9+.-]*:/i.test(spec)) {
    return { ok: false, rule: "module.not_found" };
  }
  if (spec.startsWith("/")) return { ok: false, rule: "module.outside_bundle" };
  const dir = path.posix.dirname(from);
  if (spec === "." || spec === ".." || spec.startsWith("./") || spec.startsWith("../")) {
    const joined = path.posix.normalize(path.posix.join(dir, spec));
    if (joined === ".." || joined.startsWith("../")) return { ok: false, rule: "module.outside_bundle" };
    const hit = firstFile(joined === "." ? "" : joined.replace(/\/$/, ""), has, packageJson);
    return hit ? { ok: true, targets: [hit] } : { ok: false, rule: "module.not_found" };
  }
  if (spec.startsWith("#")) return { ok: false, rule: "module.not_found" };
  return resolvePackage(dir, spec, has, packageJson);
}

/** Node's LOAD_AS_FILE then LOAD_AS_DIRECTORY: the first that exists is what runs. */
function firstFile(
  base: string,
  has: (name: string) => boolean,
  packageJson: (name: string) => string | undefined,
): string | null {
  if (base !== "") {
    for (const s of FILE_SUFFIXES) if (has(base + s)) return base + s;
  }
  const prefix = base === "" ? "" : base + "/";
  const main = mainOf(packageJson(prefix + "package.json"));
  if (main !== null) {
    const m = path.posix.normalize(prefix + main).replace(/\/$/, "");
    if (!m.startsWith("../")) {
      for (const s of FILE_SUFFIXES) if (has(m + s)) return m + s;
      for (const i of INDEX_FILES) if (has(m + "/" + i)) return m + "/" + i;
    }
  }
  for (const i of INDEX_FILES) if (has(prefix + i)) return prefix + i;
  return null;
}

function resolvePackage(
  dir: string,
  spec: string,
  has: (name: string) => boolean,
  packageJson: (name: string) => string | undefined,
): Resolution {
  const parts = spec.split("/");
  const nameLength = spec.startsWith("@") ? 2 : 1;
  if (parts.length < nameLength || parts.some((p) => p === "" || p === "." || p === "..")) {
    return { ok: false, rule: "module.not_found" };
  }
  const pkg = parts.slice(0, nameLength).join("/");
  const sub = parts.slice(nameLength).join("/");
  const segments = dir === "." ? [] : dir.split("/");
  for (let i = segments.length; i >= 0; i--) {
    if (i > 0 && segments[i - 1] === "node_modules") continue;
    const root = [...segments.slice(0, i), "node_modules", pkg].join("/");
    const targets = new Set<string>();
    // every way Node could pick the file (exports, main, index) is scanned: more is safe
    for (const t of exportTargets(packageJson(root + "/package.json"), sub)) {
      const m = path.posix.normalize(root + "/" + t);
      if (m.startsWith(root + "/") && has(m)) targets.add(m);
    }
    const direct = firstFile(sub ? `${root}/${sub}` : root, has, packageJson);
    if (direct) targets.add(direct);
    if (targets.size) return { ok: true, targets: [...targets] };
  }
  return { ok: false, rule: "module.bare_missing" };
}

function parseJson(text: string | undefined): unknown {
  if (text === undefined) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

function mainOf(text: string | undefined): string | null {
  const doc = parseJson(text);
  if (typeof doc !== "object" || doc === null || !("main" in doc)) return null;
  return typeof doc.main === "string" && doc.main !== "" ? doc.main : null;
}

/** Every string target `exports` names for `sub` (conditions included), bounded in depth. */
function exportTargets(text: string | undefined, sub: string): string[] {
  const doc = parseJson(text);
  if (typeof doc !== "object" || doc === null || !("exports" in doc)) return [];
  let exp: unknown = doc.exports;
  const key = sub ? "./" + sub : ".";
  if (typeof exp === "object" && exp !== null && !Array.isArray(exp)) {
    const keys = Object.keys(exp);
    if (keys.some((k) => k.startsWith("."))) exp = (exp as Record<string, unknown>)[key];
    else if (sub) return [];
  } else if (sub) return [];
  const out: string[] = [];
  const walk = (v: unknown, depth: number) => {
    if (depth > 8 || out.length > 32) return;
    if (typeof v === "string") out.push(v);
    else if (Array.isArray(v)) for (const x of v) walk(x, depth + 1);
    else if (typeof v === "object" && v !== null) for (const x of Object.values(v)) walk(x, depth + 1);
  };
  walk(exp, 0);
  return out;
}
