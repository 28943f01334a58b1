// The first pass: one walk over swc's tree records bindings (swc's resolver gives every identifier
// a scope-unique `ctxt`), calls, members, strings, functions and loops for the later passes.
import type {
  CatchClause,
  ClassMember,
  ExportAllDeclaration,
  ExportNamedDeclaration,
  Expression,
  HasSpan,
  ImportDeclaration,
  ModuleItem,
  Node,
  Pattern,
  Property,
  StringLiteral,
  VariableDeclarator,
} from "@swc/types";

/** The nodes the walk meets, by their `type`. */
type WalkedNode = ModuleItem | Expression | Pattern | Property | ClassMember | VariableDeclarator | CatchClause;
import { type Net, type RuleId } from "../rules";
import {
  type Ident,
  CHILD_KEYS,
  GLOBAL_CTXT,
  isConstTrue,
  isFn,
  isLocalIdent,
  isStdioFd,
  key,
  type N,
  NO_PATH,
  propName,
  SCALAR_KEYS,
} from "./ast";
import { GLOBAL_NAMES, ITER_METHODS, STDIO_WRITES } from "./names";
import { type V } from "./values";
import { CHARS_PER_STEP, MAX_FOLDED_CHARS, spanStart, TooComplex } from "./budget";

/** A module that the code loads by a literal name that is not one of Node's own. */
export interface ModuleRequest {
  spec: string;
  pos: number;
}

export interface RawFinding {
  rule: RuleId;
  pos: number;
  detail?: string;
}

// ---- the analysis -----------------------------------------------------------------------------
export interface Bind {
  src?: N; // expression
  path?: (string | null)[]; // destructuring path (null = unknown key)
  argOf?: N; // function node whose call arguments flow here
  index?: number;
  rest?: boolean;
  taintOnly?: boolean;
  source?: boolean; // tainted from the start (stdin)
  pos?: number; // where a destructured name sits, for findings reached through it
}

export interface LoopRec {
  kind: "forof" | "for" | "while" | "forever" | "cb";
  node: Node & HasSpan & { body?: Node };
  iter: Expression | null;
  test: Expression | null;
  parent: number;
  start: number;
  end: number;
}

export abstract class Binder {
  protected abstract visitImport(n: ImportDeclaration): void;
  protected abstract checkReexport(
    n: (ExportNamedDeclaration | ExportAllDeclaration) & { source: StringLiteral },
  ): void;
  protected abstract evalIdent(n: N): V;
  protected abstract evalExpr(n: N): V;
  protected abstract member(obj: V, k: string | null, pos: number): V;
  protected abstract isSensitive(v: V): boolean;

  findings: RawFinding[] = [];
  /** Every non-builtin module loaded by a literal name, for the module graph to resolve. */
  readonly requests: ModuleRequest[] = [];
  protected seen = new Set<string>();
  protected binds = new Map<string, Bind[]>();
  protected fnName = new Map<N, string>();
  protected fnReturns = new Map<N, N[]>();
  protected fnTouchesInput = new Set<N>();
  protected callsByKey = new Map<string, N[]>(); // call nodes by callee binding
  protected callsByFn = new Map<N, N[]>(); // immediately invoked function -> its call nodes
  protected members: N[] = [];
  protected calls: N[] = [];
  protected globalIdents: N[] = [];
  protected strings: N[] = [];
  protected foldRoots: N[] = [];
  protected patterns: { pat: N; src: Bind }[] = [];
  protected loops: LoopRec[] = [];
  protected loopStack: number[] = [];
  protected fnStack: N[] = [];
  protected globalThisNodes = new Set<N>();
  protected plainFnDepth = 0;
  protected sloppy = true;
  protected memo = new Map<N, V>();
  protected identMemo = new Map<string, V>();
  protected propMemo = new Map<N, V>();
  protected propActive = new Set<N>();
  protected taintMemo = new Map<string, boolean>();
  protected override: Map<string, V> | null = null;
  protected depth = 0;
  /** Evaluation steps taken so far and the most the scan may take (see budget.ts). */
  protected steps = 0;
  budget = Number.POSITIVE_INFINITY;
  protected memberBinds = 0;
  protected appends = new Map<string, N[]>();
  protected memberBindRoots = new Set<string>();
  /** Callee positions of `fs.writeSync(1, …)`-style writes to stdout/stderr, which are output, not files. */
  protected stdoutWrites = new Set<number>();

  constructor(protected readonly net: Net) {}

  /** Counts one step of analysis; throws TooComplex once the budget is spent. */
  protected tick(at: object) {
    if (++this.steps > this.budget) throw new TooComplex(spanStart(at));
  }

  /** Charges a folded string by its length; one past MAX_FOLDED_CHARS is too complex at once. */
  protected chargeString(length: number, at: object) {
    this.steps += Math.floor(length / CHARS_PER_STEP);
    if (length > MAX_FOLDED_CHARS || this.steps > this.budget) throw new TooComplex(spanStart(at));
  }

  protected report(rule: RuleId, pos: number, detail?: string) {
    if (pos < 1) pos = 1;
    if (rule === "fs.write" && this.stdoutWrites.has(pos)) return;
    const k = rule + "@" + pos;
    if (this.seen.has(k)) return;
    this.seen.add(k);
    this.findings.push({ rule, pos, detail });
  }

  /**
   * A member or call whose chain starts at a local whose value is unknown data (the usual case:
   * parsed input, loop variables) cannot reach anything the rules care about, so it is not evaluated.
   */
  protected inert(n: N): boolean {
    let b = n;
    for (;;) {
      const t = b.type;
      if (t === "MemberExpression") b = b.object;
      else if (t === "CallExpression" || t === "NewExpression") b = b.callee;
      else if (t === "OptionalChainingExpression") b = b.base;
      else if (t === "ParenthesisExpression") b = b.expression;
      else break;
    }
    if (b.type !== "Identifier" || b.ctxt === GLOBAL_CTXT) return false;
    if (this.memberBinds > 0 && this.memberBindRoots.has(key(b))) return false;
    return this.evalIdent(b).t === "any";
  }

  // ---- walk --------------------------------------------------------------------------------
  protected walkList(list: N[]) {
    for (let i = 0; i < list.length; i++) {
      const n = list[i];
      if (n && typeof n === "object") this.walk(n, null);
    }
  }

  protected walk(node: Node, parent: N) {
    const n = node as WalkedNode;
    switch (n.type) {
      case "Identifier":
        if ((n as Ident).ctxt === GLOBAL_CTXT && GLOBAL_NAMES.has(n.value) && parent?.type !== "UnaryExpression")
          this.globalIdents.push(n);
        return;
      case "MemberExpression": {
        // an inner link of a chain is evaluated with the chain
        if (!(parent && (parent.object === n || parent.callee === n))) this.members.push(n);
        const o = n.object;
        if (
          o.type === "Identifier" &&
          (o as Ident).ctxt === GLOBAL_CTXT &&
          o.value === "process" &&
          n.property.type === "Identifier" &&
          n.property.value === "stdin"
        )
          this.markInput();
        // a local identifier needs no walk (only globals are recorded)
        if (!isLocalIdent(o)) this.walk(o, n);
        if (n.property.type === "Computed") this.walk(n.property.expression, n);
        return;
      }
      case "CallExpression":
      case "NewExpression":
        this.visitCall(n);
        return;
      case "StringLiteral":
        this.strings.push(n);
        return;
      case "VariableDeclaration":
        for (let i = 0; i < n.declarations.length; i++) this.walk(n.declarations[i]!, n);
        return;
      case "VariableDeclarator":
        if (n.id.type === "Identifier" && n.init) {
          this.bind(n.id, { src: n.init });
          if (isFn(n.init)) this.fnName.set(n.init, key(n.id as Ident));
        } else if (n.init) this.bindPattern(n.id, { src: n.init }, NO_PATH);
        else this.declare(n.id);
        if (n.init) this.walk(n.init, n);
        if (n.id.type !== "Identifier") this.walkPatternDefaults(n.id);
        return;
      case "BinaryExpression":
        if (n.operator === "+" && !(parent?.type === "BinaryExpression" && parent.operator === "+"))
          this.foldRoots.push(n);
        if (!isLocalIdent(n.left)) this.walk(n.left, n);
        if (!(n.operator === "instanceof" && n.right.type === "Identifier") && !isLocalIdent(n.right))
          this.walk(n.right, n);
        return;
      case "NumericLiteral":
      case "BooleanLiteral":
      case "NullLiteral":
      case "RegExpLiteral":
      case "BigIntLiteral":
        return;
      case "ExpressionStatement":
        this.walk(n.expression, n);
        return;
      case "BlockStatement":
        this.walkList(n.stmts);
        return;
      case "IfStatement":
        this.walk(n.test, n);
        this.walk(n.consequent, n);
        if (n.alternate) this.walk(n.alternate, n);
        return;
      case "ParenthesisExpression":
        this.walk(n.expression, n);
        return;
      case "AwaitExpression":
      case "UpdateExpression":
        this.walk(n.argument, n);
        return;
      case "ConditionalExpression":
        this.walk(n.test, n);
        this.walk(n.consequent, n);
        this.walk(n.alternate, n);
        return;
      case "ArrayExpression":
        for (let i = 0; i < n.elements.length; i++) {
          const e = n.elements[i];
          if (e && !isLocalIdent(e.expression)) this.walk(e.expression, n);
        }
        return;
      case "TemplateLiteral":
        this.strings.push(n);
        if (n.expressions.length) this.foldRoots.push(n);
        this.walkList(n.expressions);
        return;
      case "ThisExpression":
        if (this.sloppy && this.plainFnDepth > 0) this.globalThisNodes.add(n);
        return;
      case "UnaryExpression":
        if (n.operator === "typeof" && n.argument.type === "Identifier") return;
        break;
      case "AssignmentExpression":
        this.visitAssign(n);
        return;
      case "FunctionDeclaration":
        this.bind(n.identifier, { src: n });
        this.fnName.set(n, key(n.identifier as Ident));
        this.visitFunction(n, n.params, n.body, false);
        return;
      case "FunctionExpression":
        if (n.identifier) this.fnName.set(n, key(n.identifier as Ident));
        this.visitFunction(n, n.params, n.body, false);
        return;
      case "ArrowFunctionExpression":
        this.visitFunction(n, n.params, n.body, true);
        return;
      case "ClassDeclaration":
        this.bind(n.identifier, { src: n });
        break;
      case "ClassMethod":
      case "PrivateMethod":
      case "Constructor":
      case "GetterProperty":
      case "SetterProperty":
      case "MethodProperty": {
        if (n.key?.type === "Computed") this.walk(n.key.expression, n);
        const f: N = "function" in n ? n.function : n;
        this.visitFunction(f, f.params ?? (n.type === "SetterProperty" ? [n.param] : []), f.body, true);
        return;
      }
      case "ReturnStatement": {
        const fn = this.fnStack[this.fnStack.length - 1];
        if (fn && n.argument) this.pushReturn(fn, n.argument);
        if (n.argument) this.walk(n.argument, n);
        return;
      }
      case "ImportDeclaration":
        this.visitImport(n);
        return;
      case "ExportNamedDeclaration":
      case "ExportAllDeclaration":
        if (n.source) this.checkReexport(n as typeof n & { source: StringLiteral });
        return;
      case "ExportDefaultDeclaration":
      case "ExportDefaultExpression": {
        const e = n.type === "ExportDefaultDeclaration" ? n.decl : n.expression;
        if (e && isFn(e)) this.exportedHandler(e);
        break;
      }
      case "CatchClause":
        if (n.param) this.bindPattern(n.param, { taintOnly: true }, NO_PATH);
        break;
      case "WithStatement":
        this.report("scan.unresolved", n.span.start, "with");
        break;
      case "ForOfStatement":
      case "ForInStatement":
        this.walk(n.right, n);
        this.bindLoopLeft(n.left, n.right);
        this.enterLoop("forof", n, n.right, null);
        this.walk(n.body, n);
        this.loopStack.pop();
        return;
      case "ForStatement":
        if (n.init) this.walk(n.init, n);
        this.enterLoop(n.test ? "for" : "forever", n, null, n.test ?? null);
        if (n.test) this.walk(n.test, n);
        if (n.update) this.walk(n.update, n);
        this.walk(n.body, n);
        this.loopStack.pop();
        return;
      case "WhileStatement":
      case "DoWhileStatement":
        this.enterLoop(isConstTrue(n.test) ? "forever" : "while", n, null, n.test);
        this.walk(n.test, n);
        this.walk(n.body, n);
        this.loopStack.pop();
        return;
      case "ObjectExpression":
        for (let _i8 = 0, _a8 = n.properties; _i8 < _a8.length; _i8++) {
          const p = _a8[_i8]!;
          if (p.type === "KeyValueProperty") {
            if (p.key.type === "Computed") this.walk(p.key.expression, p);
            if (!isLocalIdent(p.value)) this.walk(p.value, p);
          } else if (p.type === "SpreadElement") {
            this.walk(p.arguments, p);
            this.spreadArgs.push(p.arguments);
          } else if (p.type === "Identifier") this.walk(p, n);
          else this.walk(p, n);
        }
        return;
    }
    this.walkChildren(n);
  }

  protected spreadArgs: N[] = [];

  protected walkChildren(n: N) {
    let keys = CHILD_KEYS.get(n.type);
    if (!keys) {
      keys = Object.keys(n).filter((k) => !SCALAR_KEYS.has(k));
      CHILD_KEYS.set(n.type, keys);
    }
    for (let ki = 0; ki < keys.length; ki++) {
      const v = n[keys[ki]!];
      if (!v || typeof v !== "object") continue;
      if (Array.isArray(v)) {
        for (let i = 0; i < v.length; i++) {
          const c = v[i];
          if (c && typeof c === "object") {
            if (c.type) this.walk(c, n);
            else if (c.expression) this.walk(c.expression, n); // argument / array element wrapper
          }
        }
      } else if (v.type) this.walk(v, n);
      else if (v.expression && typeof v.expression === "object") this.walk(v.expression, n);
    }
  }

  /** Opens a loop record; the caller walks the body and pops `loopStack`. */
  protected enterLoop(kind: LoopRec["kind"], node: LoopRec["node"], iter: Expression | null, test: Expression | null) {
    const idx = this.loops.length;
    const parent = this.loopStack.length ? this.loopStack[this.loopStack.length - 1]! : -1;
    this.loops.push({ kind, node, iter, test, parent, start: node.span.start, end: node.span.end });
    this.loopStack.push(idx);
  }

  protected markInput() {
    for (let _i9 = 0, _a9 = this.fnStack; _i9 < _a9.length; _i9++) {
      const f = _a9[_i9]!;
      this.fnTouchesInput.add(f);
    }
  }

  protected visitFunction(fn: N, params: N[], body: N, inheritsThis: boolean) {
    this.fnStack.push(fn);
    if (!inheritsThis) this.plainFnDepth++;
    const saved = inheritsThis ? -1 : this.plainFnDepth;
    for (let i = 0; i < params.length; i++) {
      let p = params[i];
      if (p.type === "Parameter") p = p.pat;
      if (p.type === "RestElement") {
        this.bindPattern(p.argument, { taintOnly: true, argOf: fn, index: i }, NO_PATH);
        continue;
      }
      let def: N = null;
      if (p.type === "AssignmentPattern") {
        def = p.right;
        p = p.left;
        this.walk(def, null);
      }
      if (p.type === "Identifier") {
        this.bind(p, { argOf: fn, index: i });
        if (def) this.bind(p, { src: def });
      } else {
        this.bindPattern(p, { argOf: fn, index: i }, NO_PATH);
        if (def) this.bindPattern(p, { src: def }, NO_PATH);
        this.walkPatternDefaults(p);
      }
    }
    if (body) {
      if (body.type === "FunctionBody" || body.type === "BlockStatement") this.walkList(body.stmts);
      else {
        this.pushReturn(fn, body);
        this.walk(body, null);
      }
    }
    if (saved !== -1) this.plainFnDepth--;
    this.fnStack.pop();
  }

  protected pushReturn(fn: N, e: N) {
    let r = this.fnReturns.get(fn);
    if (!r) this.fnReturns.set(fn, (r = []));
    r.push(e);
  }

  protected exportedHandler(fn: N) {
    const params = fn.params ?? [];
    for (let p of params) {
      if (p.type === "Parameter") p = p.pat;
      if (p.type === "AssignmentPattern") p = p.left;
      this.bindPattern(p, { source: true }, NO_PATH);
    }
  }

  protected visitAssign(n: N) {
    const l = n.left;
    if (l.type === "Identifier") {
      if (n.operator === "=") {
        this.bind(l, { src: n.right });
        if (isFn(n.right)) this.fnName.set(n.right, key(l));
      } else this.bind(l, { src: n, taintOnly: n.operator !== "+=" }); // compound: keeps the old value's taint
      if (n.operator === "+=") {
        this.bind(l, { src: n.right, taintOnly: true });
        let pieces = this.appends.get(key(l));
        if (!pieces) this.appends.set(key(l), (pieces = []));
        pieces.push(n.right);
      }
    } else if (l.type === "MemberExpression") {
      this.members.push(l);
      this.walk(l.object, l);
      if (l.property.type === "Computed") this.walk(l.property.expression, l);
      // o.p = v: remember it as a pseudo-binding so later `o.p` reads see v
      const root = l.object;
      const prop = propName(l);
      if (root.type === "Identifier" && prop !== null) {
        this.addBind(key(root) + "." + prop, { src: n.right });
        this.memberBindRoots.add(key(root));
        this.memberBinds++;
      }
      if (
        l.object.type === "Identifier" &&
        l.object.ctxt === GLOBAL_CTXT &&
        GLOBAL_NAMES.get(l.object.value) === "global" &&
        prop !== null
      ) {
        this.addBind(prop + "#" + GLOBAL_CTXT, { src: n.right });
      }
      if (prop === "exports" && root.type === "Identifier" && root.value === "module" && isFn(n.right))
        this.exportedHandler(n.right);
    } else if (n.operator === "=") {
      this.bindPattern(l, { src: n.right }, NO_PATH);
      this.walkPatternDefaults(l);
    }
    this.walk(n.right, n);
  }

  protected bindLoopLeft(left: N, right: N) {
    const pat = left.type === "VariableDeclaration" ? left.declarations[0].id : left;
    this.bindPattern(pat, { src: right, taintOnly: true }, NO_PATH);
    if (pat.type !== "Identifier") this.bindPattern(pat, { src: right, path: [null] }, [null]);
  }

  protected visitCall(n: N) {
    this.calls.push(n);
    const callee = n.callee;
    const args: N[] = n.arguments ?? [];
    let fnCallee = callee;
    while (fnCallee.type === "ParenthesisExpression") fnCallee = fnCallee.expression;
    if (fnCallee.type === "Identifier" && fnCallee.ctxt !== GLOBAL_CTXT) {
      const k = key(fnCallee);
      let l = this.callsByKey.get(k);
      if (!l) this.callsByKey.set(k, (l = []));
      l.push(n);
    } else if (isFn(fnCallee)) {
      let l = this.callsByFn.get(fnCallee);
      if (!l) this.callsByFn.set(fnCallee, (l = []));
      l.push(n);
    }
    // callbacks: a function handed to a call on X sees X's data (taint), and `.then(fn)` sees the value
    if (callee.type === "MemberExpression") {
      const prop = propName(callee);
      const a0 = args[0]?.expression;
      if (
        prop !== null &&
        STDIO_WRITES.has(prop) &&
        a0 &&
        ((a0.type === "NumericLiteral" && (a0.value === 1 || a0.value === 2)) || isStdioFd(a0))
      )
        this.stdoutWrites.add(callee.span.start);
      for (let i = 0; i < args.length; i++) {
        const a = args[i].expression;
        if (!isFn(a)) continue;
        const ps = a.params ?? [];
        let first = ps[0];
        if (first?.type === "Parameter") first = first.pat;
        if (!first) continue;
        if (prop === "then" || prop === "finally") this.bindPattern(first, { src: callee.object }, NO_PATH);
        else this.bindPattern(first, { src: callee.object, taintOnly: true }, NO_PATH);
        if (prop !== null && ITER_METHODS.has(prop) && a === a0)
          this.bindPattern(first, { src: callee.object, path: [null] }, NO_PATH);
        if (prop === "on" || prop === "once" || prop === "addListener")
          this.bindPattern(first, { src: callee.object, taintOnly: true }, NO_PATH);
      }
      if (prop !== null && a0 && ITER_METHODS.has(prop) && isFn(a0)) {
        this.walk(callee, n);
        this.enterLoop("cb", n, callee.object, null);
        for (let i = 0; i < args.length; i++) this.walk(args[i].expression, n);
        this.loopStack.pop();
        return;
      }
    }
    if (callee.type !== "Import" && callee.type !== "Super") this.walk(callee, n);
    for (let i = 0; i < args.length; i++) {
      const a = args[i].expression;
      if (!isLocalIdent(a)) this.walk(a, n);
    }
  }

  // ---- bindings ----------------------------------------------------------------------------
  protected declare(id: N) {
    if (id && id.type !== "Identifier") this.bindPattern(id, { taintOnly: true }, NO_PATH);
  }
  protected bind(id: N, b: Bind) {
    const k = key(id);
    this.addBind(k, b);
  }
  protected addBind(k: string, b: Bind) {
    let l = this.binds.get(k);
    if (!l) this.binds.set(k, (l = []));
    l.push(b);
  }

  protected bindPattern(p: N, b: Bind, path: (string | null)[]) {
    switch (p.type) {
      case "Identifier":
        this.bind(p, path.length ? { ...b, path: (b.path ?? []).concat(path), pos: p.span.start } : b);
        return;
      case "AssignmentPattern":
        this.bindPattern(p.left, b, path);
        this.bindPattern(p.left, { src: p.right }, NO_PATH);
        return;
      case "ObjectPattern":
        if (path.length === 0 && b.src) this.patterns.push({ pat: p, src: b });
        else if (path.length === 0 && b.argOf) this.patterns.push({ pat: p, src: b });
        for (let _i11 = 0, _a11 = p.properties; _i11 < _a11.length; _i11++) {
          const prop = _a11[_i11]!;
          if (prop.type === "RestElement") this.bindPattern(prop.argument, b, path);
          else if (prop.type === "AssignmentPatternProperty") {
            this.bindPattern(prop.key, b, path.concat(prop.key.value));
            if (prop.value) this.bind(prop.key, { src: prop.value });
          } else {
            const k =
              prop.key.type === "Computed"
                ? this.constKey(prop.key.expression)
                : prop.key.value != null
                  ? String(prop.key.value)
                  : null;
            this.bindPattern(prop.value, b, path.concat(k));
          }
        }
        return;
      case "ArrayPattern":
        p.elements.forEach((e: N, i: number) => {
          if (!e) return;
          if (e.type === "RestElement") this.bindPattern(e.argument, { ...b, taintOnly: true }, path);
          else this.bindPattern(e, b, path.concat(String(i)));
        });
        return;
      case "RestElement":
        this.bindPattern(p.argument, b, path);
        return;
      case "MemberExpression":
        this.members.push(p);
        return;
    }
  }

  protected walkPatternDefaults(p: N) {
    if (!p || typeof p !== "object") return;
    if (p.type === "AssignmentPattern") {
      this.walk(p.right, p);
      this.walkPatternDefaults(p.left);
    } else if (p.type === "ObjectPattern") {
      for (let _i12 = 0, _a12 = p.properties; _i12 < _a12.length; _i12++) {
        const prop = _a12[_i12]!;
        if (prop.type === "KeyValuePatternProperty") {
          if (prop.key.type === "Computed") this.walk(prop.key.expression, prop);
          this.walkPatternDefaults(prop.value);
        } else if (prop.type === "AssignmentPatternProperty" && prop.value) this.walk(prop.value, prop);
      }
    } else if (p.type === "ArrayPattern") for (const e of p.elements) this.walkPatternDefaults(e);
  }

  protected constKey(e: N): string | null {
    if (e.type === "StringLiteral") return e.value;
    if (e.type === "NumericLiteral") return String(e.value);
    return null; // resolved later in checkPattern
  }

  /** Walks a destructuring pattern over its source value so `const { env } = process` is a member read. */
  protected checkPattern(p: N, src: () => V, path: string[]): void {
    if (p.type === "AssignmentPattern") return this.checkPattern(p.left, src, path);
    if (p.type !== "ObjectPattern") return;
    for (let _i13 = 0, _a13 = p.properties; _i13 < _a13.length; _i13++) {
      const prop = _a13[_i13]!;
      if (prop.type === "RestElement") {
        const v = src();
        if (this.isSensitive(v)) this.report("scan.unresolved", prop.span.start, "rest of a sensitive object");
        continue;
      }
      let k: string | null;
      let pos: number;
      if (prop.type === "AssignmentPatternProperty") {
        k = prop.key.value;
        pos = prop.key.span.start;
      } else if (prop.key.type === "Computed") {
        const kv = this.evalExpr(prop.key.expression);
        k = kv.t === "str" ? kv.s : kv.t === "num" ? String(kv.n) : null;
        pos = prop.key.span.start;
      } else {
        k = String(prop.key.value);
        pos = prop.key.span.start;
      }
      const child = () => this.member(src(), k, pos);
      const v = child();
      if (
        prop.type === "KeyValuePatternProperty" &&
        (prop.value.type === "ObjectPattern" || prop.value.type === "AssignmentPattern")
      ) {
        this.checkPattern(prop.value, () => v, path);
      }
    }
  }
}
