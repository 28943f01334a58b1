// swc's tree as the analyzer reads it: the node type, the keys that hold children, binding keys
// (name and swc's scope `ctxt`) and small structural questions about nodes.

import type { Expression, Identifier, MemberExpression, ModuleItem, Node, Statement } from "@swc/types";

/**
 * A node of swc's tree where the layers still read it generically, by key (the binder's walk, the
 * evaluator, the sinks, taint and loops). The helpers below and the module loads are typed with
 * @swc/types; what is left to type is listed in README ("Scanner internals").
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- see above
export type N = any;

/** @swc/core 1.16 puts the resolver's scope mark `ctxt` on the identifier (its @swc/types lags). */
export type Ident = Identifier & { ctxt: number };

export const GLOBAL_CTXT = 1;

/**
 * The object-valued fields of a node (children, lists of children, spans aside), in key order: the
 * generic walks read swc's JSON this way without knowing each node type's keys.
 */
export function* childValues(n: Node): Generator<object> {
  const fields = n as unknown as Record<string, unknown>;
  for (const k in fields) {
    if (k === "span") continue;
    const v = fields[k];
    if (v && typeof v === "object") yield v;
  }
}

// Per node type, the keys that can hold child nodes (swc's JSON has a fixed key set per type).
export const CHILD_KEYS = new Map<string, string[]>();
export const SCALAR_KEYS = new Set([
  "span",
  "type",
  "ctxt",
  "value",
  "raw",
  "optional",
  "kind",
  "declare",
  "operator",
  "definite",
  "generator",
  "async",
  "isStatic",
  "tail",
  "cooked",
  "phase",
  "prefix",
  "await",
  "delegate",
  "spread",
  "typeOnly",
  "isTypeOnly",
  "accessibility",
  "isAbstract",
  "isOptional",
  "isOverride",
  "readonly",
  "hasEscape",
]);

// ---- helpers ------------------------------------------------------------------------------------
/** The empty destructuring path, shared (paths are only read or copied, never changed in place). */
export const NO_PATH: (string | null)[] = [];
/** No arguments, shared (never changed in place). */
export const NO_ARGS: N[] = [];
// Binding keys are "name#ctxt"; cached per name and ctxt so a hot lookup allocates nothing. Most names
// have one ctxt, so the first one seen is kept beside the name and answers with a single lookup.
export interface KeyRec {
  c: number;
  k: string;
  more: Map<number, string> | null;
}
export const KEY_CACHE = new Map<string, KeyRec>();
export function key(id: Ident): string {
  const name = id.value;
  const ctxt = id.ctxt;
  const r = KEY_CACHE.get(name);
  if (r === undefined) {
    if (KEY_CACHE.size > 20_000) KEY_CACHE.clear();
    const k = name + "#" + ctxt;
    KEY_CACHE.set(name, { c: ctxt, k, more: null });
    return k;
  }
  if (r.c === ctxt) return r.k;
  let m = r.more;
  if (!m) r.more = m = new Map();
  let k = m.get(ctxt);
  if (k === undefined) {
    if (m.size > 1000) m.clear();
    m.set(ctxt, (k = name + "#" + ctxt));
  }
  return k;
}
/** A reference to a local binding: walking it records nothing (only globals are recorded). */
export function isLocalIdent(n: Node): boolean {
  return n.type === "Identifier" && (n as Ident).ctxt !== GLOBAL_CTXT;
}
export function isFn(n: Node | null | undefined): boolean {
  return !!n && (n.type === "FunctionExpression" || n.type === "ArrowFunctionExpression");
}
export function propName(m: MemberExpression): string | null {
  const p = m.property;
  if (p.type === "Identifier") return p.value;
  if (p.type === "Computed" && (p.expression.type === "StringLiteral" || p.expression.type === "NumericLiteral"))
    return String(p.expression.value);
  return null;
}
export function isStdioFd(e: Expression): boolean {
  // process.stdout.fd / process.stderr.fd
  return (
    e.type === "MemberExpression" &&
    propName(e) === "fd" &&
    e.object.type === "MemberExpression" &&
    (propName(e.object) === "stdout" || propName(e.object) === "stderr") &&
    e.object.object.type === "Identifier" &&
    e.object.object.value === "process"
  );
}
export function isConstTrue(t: Expression): boolean {
  return (t.type === "BooleanLiteral" && t.value) || (t.type === "NumericLiteral" && t.value !== 0);
}
export function hasUseStrict(body: (ModuleItem | Statement)[]): boolean {
  for (let _i25 = 0, _a25 = body; _i25 < _a25.length; _i25++) {
    const s = _a25[_i25]!;
    if (s.type !== "ExpressionStatement" || s.expression.type !== "StringLiteral") return false;
    if (s.expression.value === "use strict") return true;
  }
  return false;
}
export function collectComparisons(t: Expression | null | undefined, out: Expression[]) {
  if (!t) return;
  if (t.type === "ParenthesisExpression") return collectComparisons(t.expression, out);
  if (t.type === "BinaryExpression") {
    if (t.operator === "&&" || t.operator === "||") {
      collectComparisons(t.left, out);
      collectComparisons(t.right, out);
    } else if (t.operator === "<" || t.operator === "<=" || t.operator === ">" || t.operator === ">=") {
      out.push(t.left, t.right);
    }
    return;
  }
  if (t.type === "MemberExpression" || t.type === "Identifier") out.push(t);
}
