// swc's tree as the analyzer reads it: the node type, the keys that hold children, binding keys
// (name and swc's scope `ctxt`) and small structural questions about nodes.

import type {
  Argument,
  BindingIdentifier,
  CallExpression,
  NewExpression,
  TaggedTemplateExpression,
  ArrowFunctionExpression,
  ClassDeclaration,
  ClassExpression,
  Constructor,
  Expression,
  Fn,
  FunctionDeclaration,
  FunctionExpression,
  GetterProperty,
  HasSpan,
  Identifier,
  MemberExpression,
  MethodProperty,
  ModuleItem,
  Node,
  Param,
  Pattern,
  SetterProperty,
  Span,
  Statement,
  TsParameterProperty,
} from "@swc/types";

/**
 * A function the binder follows (its parameters, body and returns): declarations, expressions,
 * arrows, object methods and accessors, and a class method's `function` (swc's `Fn`, which has no
 * `type` of its own).
 */
export type FnNode =
  | FunctionDeclaration
  | FunctionExpression
  | ArrowFunctionExpression
  | MethodProperty
  | GetterProperty
  | SetterProperty
  | Constructor
  | Fn;
/** What a function value can be: a function, or a class (called with `new`, read for its members). */
export type FnValueNode = FnNode | ClassExpression | ClassDeclaration;
/** A parameter as swc gives it: a pattern, or wrapped in `Parameter` (functions, methods). */
export type ParamNode = Pattern | Param | TsParameterProperty;
/** What a binding's value comes from: an expression, or a declared function or class. */
export type SrcNode = Expression | FunctionDeclaration | ClassDeclaration;

export function isClass(n: FnValueNode | null | undefined): n is ClassExpression | ClassDeclaration {
  return !!n && "type" in n && (n.type === "ClassExpression" || n.type === "ClassDeclaration");
}
/** The pattern a parameter binds (through `Parameter`), or null for TypeScript's parameter properties. */
export function paramPattern(p: ParamNode): Pattern | null {
  if (p.type === "Parameter") return p.pat;
  if (p.type === "TsParameterProperty") return null;
  return p;
}

/** @swc/core 1.16 puts the resolver's scope mark `ctxt` on the identifier (its @swc/types lags). */
export type Ident = Identifier & { ctxt: number };
/** swc 1.16 gives an arrow's block body this type (its @swc/types still says BlockStatement). */
export interface FunctionBody {
  type: "FunctionBody";
  span: Span;
  stmts: Statement[];
}
/** An identifier as an expression or as a binding (a pattern); both carry `ctxt` at run time. */
export type IdentNode = Identifier | BindingIdentifier;
export function ctxtOf(id: IdentNode): number {
  return (id as Ident).ctxt;
}

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
export const NO_ARGS: Argument[] = [];
/** No argument expressions, shared (never changed in place). */
export const NO_EXPRS: (Expression | null)[] = [];
/** A node that calls: `f(…)`, `new F(…)`, or a tagged template. */
export type CallNode = CallExpression | NewExpression | TaggedTemplateExpression;
// Binding keys are "name#ctxt"; cached per name and ctxt so a hot lookup allocates nothing. Most names
// have one ctxt, so the first one seen is kept beside the name and answers with a single lookup.
export interface KeyRec {
  c: number;
  k: string;
  more: Map<number, string> | null;
}
export const KEY_CACHE = new Map<string, KeyRec>();
export function key(id: IdentNode): string {
  const own = (id as KeyedIdent).__k;
  if (own !== undefined) return own;
  const name = id.value;
  const ctxt = ctxtOf(id);
  let k: string;
  const r = KEY_CACHE.get(name);
  if (r === undefined) {
    if (KEY_CACHE.size > 20_000) KEY_CACHE.clear();
    k = name + "#" + ctxt;
    KEY_CACHE.set(name, { c: ctxt, k, more: null });
  } else if (r.c === ctxt) k = r.k;
  else {
    let m = r.more;
    if (!m) r.more = m = new Map();
    const hit = m.get(ctxt);
    if (hit === undefined) {
      if (m.size > 1000) m.clear();
      m.set(ctxt, (k = name + "#" + ctxt));
    } else k = hit;
  }
  (id as KeyedIdent).__k = k;
  return k;
}
type KeyedIdent = IdentNode & { __k?: string };
/** A reference to a local binding: walking it records nothing (only globals are recorded). */
/** Where an expression starts (swc's types list JSX expressions without a span; JS has none). */
export function startOf(e: Expression): number {
  return (e as Expression & HasSpan).span.start;
}
export function isLocalIdent(n: Node): boolean {
  return n.type === "Identifier" && (n as Ident).ctxt !== GLOBAL_CTXT;
}
export function isFn(n: Node | null | undefined): n is FunctionExpression | ArrowFunctionExpression {
  return !!n && (n.type === "FunctionExpression" || n.type === "ArrowFunctionExpression");
}
/** A function value that is a function or arrow expression (those the evaluator applies). */
export function isFnExpr(n: FnValueNode | null): n is FunctionExpression | ArrowFunctionExpression {
  return !!n && "type" in n && isFn(n);
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
