// The abstract evaluator: folds constants and follows aliases (variables, destructuring, function
// parameters and returns, members) to the well-known objects the rules are about.
import { type RuleId } from "../rules";
import type {
  Argument,
  BinaryExpression,
  CallExpression,
  ClassDeclaration,
  Expression,
  FunctionDeclaration,
  HasSpan,
  NewExpression,
  Node,
  ObjectExpression,
} from "@swc/types";
import { type CallNode, type FnValueNode, GLOBAL_CTXT, type Ident, isClass, key, NO_ARGS, NO_EXPRS } from "./ast";
import { type Bind, Binder } from "./binder";
import { CHARS_PER_STEP } from "./budget";
import { basePathRule, GLOBAL_NAMES, normalizePath, OBJECT_REFS, RULE_CACHE, SENSITIVE_ROOTS } from "./names";
import { ANY, asStr, isValue, payloadView, type PropSource, ref, strLit, union, type V } from "./values";

export abstract class Evaluator extends Binder {
  protected abstract loadModule(spec: string, pos: number, stmtPos: number): V;
  protected abstract applyCall(callee: V, args: (Expression | null)[], n: CallNode, isNew: boolean, argVals?: V[]): V;

  protected evalBind(b: Bind): V {
    if (b.source || b.taintOnly) return ANY;
    let v: V;
    if (b.src) v = this.evalExpr(b.src);
    else if (b.argOf) v = this.argValue(b.argOf, b.index!);
    else v = ANY;
    if (b.path) for (const k of b.path) v = this.member(v, k, b.pos ?? -1);
    return v;
  }

  protected callSites(fn: FnValueNode): (CallExpression | NewExpression)[] {
    const name = this.fnName.get(fn);
    const byName = name ? this.callsByKey.get(name) : undefined;
    const direct = this.callsByFn.get(fn);
    return byName && direct ? byName.concat(direct) : (byName ?? direct ?? []);
  }

  protected argValue(fn: FnValueNode, index: number): V {
    const sites = this.callSites(fn);
    if (!sites.length) return ANY;
    const vs: V[] = [];
    for (let _i14 = 0, _a14 = sites; _i14 < _a14.length; _i14++) {
      const c = _a14[_i14]!;
      const a = c.arguments![index];
      vs.push(a && !a.spread ? this.evalExpr(a.expression) : ANY);
    }
    return union(vs);
  }

  protected evalIdent(n: Ident): V {
    const k = key(n);
    if (this.override) {
      const o = this.override.get(k);
      if (o) return o;
    }
    const m = this.identMemo.get(k);
    if (m) return m;
    let v: V = ANY;
    this.identMemo.set(k, ANY); // cycle guard
    const bl = this.binds.get(k);
    const g = n.ctxt === GLOBAL_CTXT ? GLOBAL_NAMES.get(n.value) : undefined;
    if (g === undefined && bl && bl.length === 1) v = this.evalBind(bl[0]!);
    else {
      const vs: V[] = [];
      if (g !== undefined) vs.push(ref(g));
      if (bl) for (const b of bl) vs.push(this.evalBind(b));
      if (vs.length) v = union(vs);
    }
    this.identMemo.set(k, v);
    return v;
  }

  /**
   * The values `o.p = x` assignments give `o.p`, once per scan like an identifier's: an assignment
   * that reads the property it sets (`o.p = (o.p || "") + "…"`) would otherwise re-expand every
   * assignment at every read, exponentially.
   */
  protected memberBindValue(k: string): V | null {
    const extra = this.binds.get(k);
    if (!extra) return null;
    const m = this.memberMemo.get(k);
    if (m) return m;
    this.memberMemo.set(k, ANY); // cycle guard
    const v = union(extra.map((b) => this.evalBind(b)));
    this.memberMemo.set(k, v);
    return v;
  }

  // ---- evaluation --------------------------------------------------------------------------
  evalExpr(n: Node | null | undefined): V {
    if (!n) return ANY;
    // only calls are memoized: other nodes skip the lookup
    const t = n.type;
    const memoizable = t === "CallExpression" || t === "NewExpression";
    if (memoizable && !this.override) {
      const cached = this.memo.get(n);
      if (cached) return cached;
    }
    if (this.depth > 200) return ANY;
    this.tick(n);
    this.depth++;
    const v = this.evalInner(n);
    this.depth--;
    if (v.t === "str" && v.s.length > CHARS_PER_STEP) this.chargeString(v.s.length, n);
    if (memoizable && !this.override) this.memo.set(n, v);
    return v;
  }

  protected evalInner(node: Node): V {
    const n = node as Expression | FunctionDeclaration | ClassDeclaration;
    switch (n.type) {
      case "Identifier": {
        const v = this.evalIdent(n as Ident);
        if ((n as Ident).ctxt === GLOBAL_CTXT && v.t === "ref" && GLOBAL_NAMES.get(n.value) === v.p)
          this.refCreated(v.p, "", n.span.start);
        return v;
      }
      case "MemberExpression": {
        const obj = this.evalExpr(n.object);
        let k: string | null;
        if (n.property.type === "Identifier") k = n.property.value;
        else if (n.property.type === "Computed") {
          const kv = this.evalExpr(n.property.expression);
          k = kv.t === "str" ? kv.s : kv.t === "num" ? String(kv.n) : null;
        } else k = null;
        let v = this.member(obj, k, n.span.start);
        // o.p = x assignments seen elsewhere
        if (this.memberBinds > 0 && n.object.type === "Identifier" && k !== null) {
          const root = key(n.object as Ident);
          const extra = this.memberBindRoots.has(root) ? this.memberBindValue(root + "." + k) : null;
          if (extra) v = union([v, extra]);
        }
        return v;
      }
      case "CallExpression":
      case "NewExpression":
        return this.evalCall(n);
      case "MetaProperty":
        return n.kind === "import.meta" ? ref("import.meta") : ANY;
      case "StringLiteral":
        return strLit(n);
      case "NumericLiteral":
        return { t: "num", n: n.value };
      case "TemplateLiteral": {
        let s = "";
        let p = "";
        let d = false;
        for (let i = 0; i < n.quasis.length; i++) {
          const q = n.quasis[i]!;
          s += q.cooked ?? q.raw;
          p += payloadView(q.raw);
          if (i < n.expressions.length) {
            const e = this.evalExpr(n.expressions[i]);
            const es = asStr(e);
            if (es === null) return ANY;
            s += es;
            p += e.t === "str" ? (e.p ?? e.s) : es;
            if (e.t === "str" && e.d) d = true;
          }
        }
        return { t: "str", s, p: p === s ? undefined : p, c: true, d };
      }
      case "ThisExpression":
        return this.globalThisNodes.has(n) ? ref("global") : ANY;
      case "ParenthesisExpression":
        return this.evalExpr(n.expression);
      case "SequenceExpression":
        for (let i = 0; i < n.expressions.length - 1; i++) this.evalExpr(n.expressions[i]);
        return this.evalExpr(n.expressions[n.expressions.length - 1]);
      case "AwaitExpression":
        return this.evalExpr(n.argument);
      case "ConditionalExpression":
        return union([this.evalExpr(n.consequent), this.evalExpr(n.alternate)]);
      case "AssignmentExpression":
        return n.operator === "=" ? this.evalExpr(n.right) : ANY;
      case "OptionalChainingExpression":
        return this.evalExpr(n.base);
      case "BinaryExpression":
        return this.evalBinary(n);
      case "UnaryExpression": {
        if (n.operator === "typeof" || n.operator === "delete" || n.operator === "void" || n.operator === "!")
          return ANY;
        const a = this.evalExpr(n.argument);
        if (n.operator === "-" && a.t === "num") return { t: "num", n: -a.n };
        if (n.operator === "+" && a.t === "num") return a;
        if (n.operator === "~" && a.t === "num") return { t: "num", n: ~a.n };
        return ANY;
      }
      case "ArrayExpression": {
        if (n.elements.length > 4096) return ANY;
        const items: V[] = [];
        for (let _i15 = 0, _a15 = n.elements; _i15 < _a15.length; _i15++) {
          const e = _a15[_i15]!;
          if (!e || e.spread) return { t: "arr", items: items.concat(ANY) };
          items.push(this.evalExpr(e.expression));
        }
        return { t: "arr", items };
      }
      case "ObjectExpression":
        // properties are read lazily: most object literals are never looked into
        return { t: "obj", node: n };
      case "FunctionExpression":
      case "ArrowFunctionExpression":
      case "ClassExpression":
      case "FunctionDeclaration":
      case "ClassDeclaration":
        return { t: "fn", node: n };
      case "TaggedTemplateExpression": {
        const tag = this.evalExpr(n.tag);
        if (tag.t === "ref" && tag.p === "String.raw") {
          return { t: "str", s: n.template.quasis.map((q) => q.raw).join(""), c: true };
        }
        this.applyCall(tag, [n.template], n, false);
        return ANY;
      }
    }
    return ANY;
  }

  protected evalBinary(n: BinaryExpression): V {
    const op = n.operator;
    if (
      op === "+" ||
      op === "-" ||
      op === "*" ||
      op === "/" ||
      op === "%" ||
      op === "**" ||
      op === "|" ||
      op === "&" ||
      op === "^" ||
      op === "<<" ||
      op === ">>"
    ) {
      const a = this.evalExpr(n.left);
      const b = this.evalExpr(n.right);
      if (op === "+") {
        if (a.t === "num" && b.t === "num") return { t: "num", n: a.n + b.n };
        const as = asStr(a);
        const bs = asStr(b);
        if (as !== null && bs !== null && (a.t === "str" || b.t === "str")) {
          const ap = a.t === "str" ? (a.p ?? a.s) : as;
          const bp = b.t === "str" ? (b.p ?? b.s) : bs;
          const s = as + bs;
          const p = ap + bp;
          return {
            t: "str",
            s,
            p: p === s ? undefined : p,
            c: true,
            d: (a.t === "str" && a.d) || (b.t === "str" && b.d),
          };
        }
        return ANY;
      }
      if (a.t === "num" && b.t === "num") {
        const x = a.n;
        const y = b.n;
        const r =
          op === "-"
            ? x - y
            : op === "*"
              ? x * y
              : op === "/"
                ? x / y
                : op === "%"
                  ? x % y
                  : op === "**"
                    ? x ** y
                    : op === "|"
                      ? x | y
                      : op === "&"
                        ? x & y
                        : op === "^"
                          ? x ^ y
                          : op === "<<"
                            ? x << y
                            : x >> y;
        return { t: "num", n: r };
      }
      return ANY;
    }
    if (op === "||" || op === "??" || op === "&&") return union([this.evalExpr(n.left), this.evalExpr(n.right)]);
    return ANY; // comparisons yield booleans; their operands are evaluated where the walk found them
  }

  /** Reading property `k` (null = not statically known) of `obj`; reports what the read reaches. */
  member(obj: V, k: string | null, pos: number): V {
    switch (obj.t) {
      case "or":
        return union(obj.vs.map((v) => this.member(v, k, pos)));
      case "ref": {
        if (k === null) {
          if (SENSITIVE_ROOTS.has(obj.p)) this.report("scan.unresolved", pos, obj.p);
          return ANY;
        }
        // refs are interned, so a property read on one resolves once per process, not per scan
        let kids = obj.kids;
        const hit = kids?.get(k);
        if (hit) {
          if (hit.t === "ref") this.refCreated(hit.p, obj.p, pos);
          return hit;
        }
        const child = this.refMember(obj, k, pos);
        if (child.t === "ref" || child.t === "m") {
          if (!kids) obj.kids = kids = new Map();
          if (kids.size < 256) kids.set(k, child);
        }
        return child;
      }
      case "str":
        if (k === "length") return { t: "num", n: obj.s.length };
        if (k === "constructor") return ref("String");
        if (k !== null && /^\d+$/.test(k)) return { t: "str", s: obj.s.charAt(Number(k)) };
        return k === null ? ANY : { t: "m", recv: obj, name: k };
      case "arr":
        if (k === "constructor") return ref("Array");
        if (k === "length") return { t: "num", n: obj.items.length };
        if (k !== null && /^\d+$/.test(k)) return obj.items[Number(k)] ?? ANY;
        if (k === null) {
          const u = union(obj.items);
          return u;
        }
        return { t: "m", recv: obj, name: k };
      case "obj": {
        if (k === "constructor") return ref("Object");
        const props = this.propsOf(obj);
        if (k === "toString" && props.has("__buf")) return { t: "m", recv: obj, name: k };
        if (k === null) return union([...props.values()].map((x) => this.propValue(x)));
        const pv = props.get(k);
        return pv ? this.propValue(pv) : ANY;
      }
      case "fn":
        if (k === "constructor") return this.refAt("Function", "fn", pos);
        if (k === "call" || k === "apply" || k === "bind") return { t: "m", recv: obj, name: k };
        if (isClass(obj.node) && k !== null) {
          for (let _i16 = 0, _a16 = obj.node.body; _i16 < _a16.length; _i16++) {
            const m = _a16[_i16]!;
            if (
              (m.type === "ClassMethod" || m.type === "ClassProperty") &&
              m.key?.type !== "Computed" &&
              m.key?.value === k
            ) {
              return m.type === "ClassMethod" ? { t: "fn", node: m.function } : m.value ? this.evalExpr(m.value) : ANY;
            }
          }
        }
        return ANY;
      case "m":
        if (k === "constructor") return this.refAt("Function", "fn", pos);
        if (k === "call" || k === "apply" || k === "bind") return { t: "m", recv: obj, name: k };
        return ANY;
      case "num":
        return k === "constructor" ? ref("Number") : ANY;
      default:
        if (k === "constructor") return ref("ctor?");
        return ANY;
    }
  }

  /** The known properties of an object value (built from its literal on first use). */
  protected propsOf(obj: { props?: Map<string, PropSource>; node?: ObjectExpression }): Map<string, PropSource> {
    if (obj.props) return obj.props;
    const props = new Map<string, PropSource>();
    for (const p of obj.node?.properties ?? []) {
      if (p.type === "KeyValueProperty") {
        const k = p.key.type === "Computed" ? asStr(this.evalExpr(p.key.expression)) : String(p.key.value);
        if (k !== null) props.set(k, p.value);
      } else if (p.type === "Identifier") props.set(p.value, p);
      else if (p.type === "MethodProperty" && p.key.type !== "Computed")
        props.set(String(p.key.value), { t: "fn", node: p });
    }
    return (obj.props = props);
  }

  /**
   * A property's value, once per scan outside a call's parameter bindings. An object whose
   * property reads the object again (`t = { r: t.r }` through a shared variable) is a cycle: its
   * inner read is unknown, where it would otherwise re-expand to the depth limit, exponentially.
   */
  protected propValue(x: PropSource): V {
    if (isValue(x)) return x;
    const node = x;
    const m = this.override ? undefined : this.propMemo.get(node);
    if (m) return m;
    if (this.propActive.has(node)) return ANY;
    this.propActive.add(node);
    const v = this.evalExpr(node);
    this.propActive.delete(node);
    if (!this.override) this.propMemo.set(node, v);
    return v;
  }

  protected refMember(obj: { t: "ref"; p: string }, k: string, pos: number): V {
    {
      {
        const joined = obj.p + "." + k;
        const norm = normalizePath(joined);
        if (norm !== joined) return this.refAt(norm, obj.p, pos);
        if (k === "constructor") {
          if (obj.p.endsWith(".constructor") || obj.p === "ctor") return this.refAt("Function", obj.p, pos);
          return OBJECT_REFS.has(obj.p) ? ref("ctor") : this.refAt("Function", obj.p, pos);
        }
        if (k === "__proto__" || k === "prototype") return ref(obj.p + "." + k);
        if ((k === "call" || k === "apply" || k === "bind") && !OBJECT_REFS.has(obj.p))
          return { t: "m", recv: obj, name: k };
        return this.refAt(joined, obj.p, pos);
      }
    }
  }

  protected refAt(p: string, from: string, pos: number): V {
    this.refCreated(p, from, pos);
    return ref(p);
  }

  /** Reports a newly reached well-known path (once: a path already dangerous is not re-reported). */
  protected refCreated(p: string, from: string, pos: number) {
    if (pos < 0) pos = 0;
    const rule = this.pathRule(p);
    if (!rule) return;
    if (from && this.pathRule(from) === rule) return;
    this.report(rule, pos, p);
  }

  protected pathRule(p: string): RuleId | null {
    let r = RULE_CACHE.get(p);
    if (r === undefined) {
      r = basePathRule(p);
      RULE_CACHE.set(p, r);
    }
    if (r === "net.use") return this.net === "deny" ? "net.denied" : "net.use";
    return r;
  }

  protected isSensitive(v: V): boolean {
    if (v.t === "ref") return SENSITIVE_ROOTS.has(v.p) || v.p === "process.env";
    if (v.t === "or") return v.vs.some((x) => this.isSensitive(x));
    return false;
  }

  protected evalCall(n: CallExpression | NewExpression): V {
    const isNew = n.type === "NewExpression";
    const raw: Argument[] = n.arguments ?? NO_ARGS;
    const ct = n.callee.type;
    if (ct === "Import") {
      const a0 = raw[0] && !raw[0].spread ? raw[0].expression : null;
      const sv = a0 ? this.evalExpr(a0) : ANY;
      if (sv.t === "str" && a0) return this.loadModule(sv.s, (a0 as Node & HasSpan).span.start, n.span.start);
      this.report("module.unresolved", n.span.start);
      return ANY;
    }
    if (ct === "Super") return ANY;
    const callee = this.evalExpr(n.callee);
    // only calls of well-known values and methods look at their arguments
    if (callee.t !== "ref" && callee.t !== "m" && callee.t !== "or") return this.applyCall(callee, NO_EXPRS, n, isNew);
    const args: (Expression | null)[] = new Array(raw.length);
    for (let i = 0; i < raw.length; i++) args[i] = raw[i]!.spread ? null : raw[i]!.expression;
    return this.applyCall(callee, args, n, isNew);
  }

  protected argsVals(args: (Expression | null)[]): V[] {
    const out: V[] = new Array(args.length);
    for (let i = 0; i < args.length; i++) {
      const a = args[i];
      // object literals are read by hostOf() directly; building their maps here is wasted work
      out[i] = a && a.type !== "ObjectExpression" ? this.evalExpr(a) : ANY;
    }
    return out;
  }
}
