// Taint from the tool's input (stdin, parsed arguments) and the loops whose length the input sets.
import type { Argument, Declaration, Expression, HasSpan, IfStatement, Node } from "@swc/types";
import {
  childValues,
  collectComparisons,
  type FnValueNode,
  GLOBAL_CTXT,
  isFn,
  key,
  type Ident,
  propName,
  type SrcNode,
} from "./ast";
import { type LoopRec } from "./binder";
import { Sinks } from "./sinks";

export abstract class TaintAndLoops extends Sinks {
  private returnTaint = new Map<FnValueNode, boolean>();

  // ---- loops over input --------------------------------------------------------------------
  protected taintKey(k: string): boolean {
    const m = this.taintMemo.get(k);
    if (m !== undefined) return m;
    this.taintMemo.set(k, false);
    let t = false;
    const bl = this.binds.get(k);
    if (bl) {
      for (let _i23 = 0, _a23 = bl; _i23 < _a23.length; _i23++) {
        const b = _a23[_i23]!;
        if (b.source) t = true;
        else if (b.src) t = this.tainted(b.src, 0);
        else if (b.argOf) {
          t = this.callSites(b.argOf).some((c) =>
            (c.arguments as Argument[]).slice(b.index).some((a) => this.tainted(a.expression, 0)),
          );
        }
        if (t) break;
      }
    }
    this.taintMemo.set(k, t);
    return t;
  }

  /**
   * Does a function return input? Once per function, like a variable's taint: functions whose
   * returns call the next one twice (`return g()` on both branches) would otherwise re-walk each
   * chain on every path, exponentially.
   */
  protected returnsTainted(fn: FnValueNode): boolean {
    const m = this.returnTaint.get(fn);
    if (m !== undefined) return m;
    this.returnTaint.set(fn, false); // cycle guard
    const t = (this.fnReturns.get(fn) ?? []).some((r) => this.tainted(r, 0));
    this.returnTaint.set(fn, t);
    return t;
  }

  /** Does expression `e` carry data read from the tool's input? */
  tainted(node: Node | null | undefined, depth: number): boolean {
    if (!node || typeof node !== "object" || depth > 60) return false;
    this.tick(node);
    const e = node as Expression | Declaration;
    switch (e.type) {
      case "Identifier":
        if ((e as Ident).ctxt === GLOBAL_CTXT) return false;
        return this.taintKey(key(e as Ident));
      case "StringLiteral":
      case "NumericLiteral":
      case "BooleanLiteral":
      case "NullLiteral":
      case "RegExpLiteral":
      case "FunctionExpression":
      case "ArrowFunctionExpression":
      case "ClassExpression":
      case "FunctionDeclaration":
      case "ClassDeclaration":
        return false;
      case "MemberExpression": {
        const o = e.object;
        if (o.type === "Identifier" && (o as Ident).ctxt === GLOBAL_CTXT && o.value === "process") {
          const pn = propName(e);
          return pn === "stdin" || pn === "argv";
        }
        return (
          this.tainted(o, depth + 1) ||
          (e.property.type === "Computed" && this.tainted(e.property.expression, depth + 1))
        );
      }
      case "CallExpression": {
        const c = e.callee;
        if (c.type === "MemberExpression") {
          const pn = propName(c);
          if (pn === "readFileSync" || pn === "readFile" || pn === "readSync") return true;
          if (
            c.object.type === "Identifier" &&
            c.object.value === "Math" &&
            pn === "min" &&
            e.arguments.some((a) => a.expression.type === "NumericLiteral")
          )
            return false;
        }
        if (c.type === "Identifier" && (c.value === "readFileSync" || c.value === "readFile")) return true;
        if (c.type === "Identifier" && (c as Ident).ctxt !== GLOBAL_CTXT) {
          const fnv = this.evalExpr(c);
          if (fnv.t === "fn" && fnv.node && (this.fnTouchesInput.has(fnv.node) || this.returnsTainted(fnv.node)))
            return true;
        }
        if (c.type !== "Import" && c.type !== "Super" && this.tainted(c, depth + 1)) return true;
        return e.arguments.some((a) => this.tainted(a.expression, depth + 1));
      }
    }
    return someChild(node, (c) => this.tainted(c, depth + 1));
  }

  protected accessPath(e: SrcNode | null | undefined, depth: number): string {
    if (!e || depth > 10) return "?";
    switch (e.type) {
      case "ParenthesisExpression":
        return this.accessPath(e.expression, depth + 1);
      case "Identifier": {
        const bl = this.binds.get(key(e as Ident));
        if (bl && bl.length === 1 && bl[0]!.src && !bl[0]!.path && !bl[0]!.taintOnly && !isFn(bl[0]!.src))
          return this.accessPath(bl[0]!.src, depth + 1);
        return "k:" + key(e as Ident);
      }
      case "MemberExpression": {
        const pn = propName(e);
        return this.accessPath(e.object, depth + 1) + (pn === null ? "[*]" : "." + pn);
      }
      case "CallExpression":
        if (e.callee.type === "MemberExpression")
          return this.accessPath(e.callee.object, depth + 1) + "." + (propName(e.callee) ?? "*") + "()";
        return "@" + e.span.start;
    }
    return "@" + (e as Node & HasSpan).span.start;
  }

  protected iterOf(rec: LoopRec): { expr: Expression; lengthish: boolean } | null {
    if (rec.iter) return { expr: rec.iter, lengthish: true };
    if (!rec.test) return null;
    const sides: Expression[] = [];
    collectComparisons(rec.test, sides);
    for (let _i24 = 0, _a24 = sides; _i24 < _a24.length; _i24++) {
      const s = _a24[_i24]!;
      if (!this.tainted(s, 0)) continue;
      if (s.type === "MemberExpression" && (propName(s) === "length" || propName(s) === "size"))
        return { expr: s.object, lengthish: true };
      if (s.type === "Identifier") {
        const bl = this.binds.get(key(s as Ident));
        const src: SrcNode | undefined = bl?.[0]?.src;
        if (src && src.type === "MemberExpression" && (propName(src) === "length" || propName(src) === "size"))
          return { expr: src.object, lengthish: true };
      }
      return { expr: s, lengthish: this.sizeDerived(s, 0) };
    }
    return null;
  }

  /** Does `e` come from the size of some data (`.length`, `.size`) rather than a number the input names? */
  protected sizeDerived(node: Node | null | undefined, depth: number): boolean {
    if (!node || typeof node !== "object" || depth > 6) return false;
    this.tick(node);
    const e = node as Expression;
    if (e.type === "MemberExpression") {
      const pn = propName(e);
      if (pn === "length" || pn === "size") return true;
    }
    if (e.type === "Identifier") {
      const bl = this.binds.get(key(e as Ident));
      return !!bl && bl.length > 0 && bl.every((b) => !!b.src && !b.path && this.sizeDerived(b.src, depth + 1));
    }
    return someChild(node, (c) => this.sizeDerived(c, depth + 1));
  }

  protected checkLoops() {
    const info = this.loops.map((rec) => {
      if (rec.kind === "forever") return null;
      const it = this.iterOf(rec);
      if (!it) return null;
      if ((rec.kind === "forof" || rec.kind === "cb") && !this.tainted(it.expr, 0)) return null;
      return it;
    });
    this.loops.forEach((rec, i) => {
      const it = info[i];
      const pos = rec.node.span.start;
      if (rec.kind === "forever") {
        if (this.bodyBreaksOnInput(rec.node.body)) this.report("loop.input", pos, "endless loop that stops on input");
        return;
      }
      if (!it) return;
      if (rec.kind === "while") {
        this.report("loop.input", pos, "while loop bounded by input");
        return;
      }
      if (rec.kind === "for" && !it.lengthish) {
        this.report("loop.input", pos, "loop count comes from input");
        return;
      }
      const path = this.accessPath(it.expr, 0);
      for (let p = rec.parent; p !== -1; p = this.loops[p]!.parent) {
        const outer = info[p];
        if (!outer) continue;
        const op = this.accessPath(outer.expr, 0);
        if (op === path) {
          this.report("loop.input", pos, "nested loop over the same input");
          return;
        }
      }
    });
  }

  protected bodyBreaksOnInput(body: Node | undefined): boolean {
    let found = false;
    const visit = (v: unknown) => {
      if (found || !v || typeof v !== "object") return;
      if (Array.isArray(v)) return v.forEach(visit);
      const n = v as Node;
      if (isFn(n)) return;
      if (n.type === "IfStatement" && this.tainted((n as IfStatement).test, 0)) {
        found = true;
        return;
      }
      for (const c of childValues(n)) visit(c);
    };
    visit(body);
    return found;
  }
}

/** A child value as a node: a node itself, or the expression an argument or spread wraps. */
function nodeOf(v: object): Node {
  return "type" in v ? (v as Node) : (v as Argument).expression;
}

/**
 * Whether `test` holds for some child node, every field in key order (a plain loop: this runs per
 * node, and a generator costs more).
 */
function someChild(node: Node, test: (child: Node) => boolean): boolean {
  const fields = node as unknown as Readonly<Record<string, unknown>>;
  for (const k in fields) {
    if (k === "span") continue;
    const v = fields[k];
    if (!v || typeof v !== "object") continue;
    if (Array.isArray(v)) {
      for (let i = 0; i < v.length; i++) {
        const c: unknown = v[i];
        if (c && typeof c === "object" && test(nodeOf(c))) return true;
      }
    } else if (test(nodeOf(v))) return true;
  }
  return false;
}
