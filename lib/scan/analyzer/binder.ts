// The first pass: one walk over swc's tree records bindings (swc's resolver gives every identifier
// a scope-unique `ctxt`), calls, members, strings, functions and loops for the later passes.
import type {
  Argument,
  ArrowFunctionExpression,
  AssignmentExpression,
  BlockStatement,
  CallExpression,
  CatchClause,
  ClassMember,
  ExportAllDeclaration,
  ExportNamedDeclaration,
  Expression,
  FunctionExpression,
  ImportDeclaration,
  MemberExpression,
  NewExpression,
  ModuleItem,
  Node,
  Pattern,
  Property,
  StringLiteral,
  VariableDeclaration,
  VariableDeclarator,
} from "@swc/types";

/** The nodes the walk meets, by their `type`. */
type WalkedNode = ModuleItem | Expression | Pattern | Property | ClassMember | VariableDeclarator | CatchClause;
import {
  type Ident,
  CHILD_KEYS,
  ctxtOf,
  type FnNode,
  type FunctionBody,
  GLOBAL_CTXT,
  isConstTrue,
  isFn,
  isLocalIdent,
  isStdioFd,
  key,
  NO_ARGS,
  NO_PATH,
  type ParamNode,
  paramPattern,
  propName,
  SCALAR_KEYS,
} from "./ast";
import { GLOBAL_NAMES, ITER_METHODS, STDIO_WRITES } from "./names";

import { BinderState, type LoopRec } from "./binder-state";

export type { Bind, LoopRec, ModuleRequest, RawFinding } from "./binder-state";

export abstract class Binder extends BinderState {
  protected abstract visitImport(n: ImportDeclaration): void;
  protected abstract checkReexport(
    n: (ExportNamedDeclaration | ExportAllDeclaration) & { source: StringLiteral },
  ): void;

  // ---- walk --------------------------------------------------------------------------------
  protected walkList(list: readonly (Node | null | undefined)[]) {
    for (let i = 0; i < list.length; i++) {
      const n = list[i];
      if (n && typeof n === "object") this.walk(n, null);
    }
  }

  protected walk(node: Node, parentNode: Node | null) {
    const n = node as WalkedNode;
    const parent = parentNode as WalkedNode | null;
    switch (n.type) {
      case "Identifier":
        if ((n as Ident).ctxt === GLOBAL_CTXT && GLOBAL_NAMES.has(n.value) && parent?.type !== "UnaryExpression")
          this.globalIdents.push(n as Ident);
        return;
      case "MemberExpression": {
        // an inner link of a chain is evaluated with the chain
        if (!(parent && isChainLink(parent, n))) this.members.push(n);
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
        // swc 1.16 gives accessors a `function` too, where @swc/types still lists `body`
        const f: FnNode = "function" in n ? n.function : n;
        const params: ParamNode[] = "params" in f ? f.params : n.type === "SetterProperty" ? [n.param] : [];
        this.visitFunction(f, params, f.body, true);
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

  protected spreadArgs: Expression[] = [];

  /** Walks the children of a node the switch above does not know, by swc's keys for its type. */
  protected walkChildren(n: Node) {
    const fields = n as unknown as Readonly<Record<string, unknown>>; // read by key: see CHILD_KEYS
    let keys = CHILD_KEYS.get(n.type);
    if (!keys) {
      keys = Object.keys(n).filter((k) => !SCALAR_KEYS.has(k));
      CHILD_KEYS.set(n.type, keys);
    }
    for (let ki = 0; ki < keys.length; ki++) {
      const v = fields[keys[ki]!];
      if (!v || typeof v !== "object") continue;
      if (Array.isArray(v)) {
        for (let i = 0; i < v.length; i++) {
          const c: unknown = v[i];
          if (c && typeof c === "object") this.walkChild(c as ChildField, n);
        }
      } else this.walkChild(v as ChildField, n);
    }
  }

  /** A child field's value: a node, or a wrapper (argument, array element) around its expression. */
  private walkChild(c: ChildField, n: Node) {
    if ("type" in c) {
      if (c.type) this.walk(c, n);
    } else if (c.expression && typeof c.expression === "object") this.walk(c.expression, n);
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

  protected visitFunction(
    fn: FnNode,
    params: readonly ParamNode[],
    body: BlockStatement | FunctionBody | Expression | undefined,
    inheritsThis: boolean,
  ) {
    this.fnStack.push(fn);
    if (!inheritsThis) this.plainFnDepth++;
    const saved = inheritsThis ? -1 : this.plainFnDepth;
    for (let i = 0; i < params.length; i++) {
      let p = paramPattern(params[i]!);
      if (!p) continue;
      if (p.type === "RestElement") {
        this.bindPattern(p.argument, { taintOnly: true, argOf: fn, index: i }, NO_PATH);
        continue;
      }
      let def: Expression | null = null;
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

  protected pushReturn(fn: FnNode, e: Expression) {
    let r = this.fnReturns.get(fn);
    if (!r) this.fnReturns.set(fn, (r = []));
    r.push(e);
  }

  protected exportedHandler(fn: FunctionExpression | ArrowFunctionExpression) {
    const params: readonly ParamNode[] = fn.params;
    for (const param of params) {
      let p = paramPattern(param);
      if (!p) continue;
      if (p.type === "AssignmentPattern") p = p.left;
      this.bindPattern(p, { source: true }, NO_PATH);
    }
  }

  protected visitAssign(n: AssignmentExpression) {
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
        ctxtOf(l.object) === GLOBAL_CTXT &&
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

  protected bindLoopLeft(left: VariableDeclaration | Pattern, right: Expression) {
    const pat = left.type === "VariableDeclaration" ? left.declarations[0]!.id : left;
    this.bindPattern(pat, { src: right, taintOnly: true }, NO_PATH);
    if (pat.type !== "Identifier") this.bindPattern(pat, { src: right, path: [null] }, [null]);
  }

  protected visitCall(n: CallExpression | NewExpression) {
    this.calls.push(n);
    const callee = n.callee;
    const args: Argument[] = n.arguments ?? NO_ARGS;
    let fnCallee = callee;
    while (fnCallee.type === "ParenthesisExpression") fnCallee = fnCallee.expression;
    if (fnCallee.type === "Identifier" && ctxtOf(fnCallee) !== GLOBAL_CTXT) {
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
        const a = args[i]!.expression;
        if (!isFn(a)) continue;
        const ps: readonly ParamNode[] = a.params;
        const first = ps[0] ? paramPattern(ps[0]) : null;
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
        for (let i = 0; i < args.length; i++) this.walk(args[i]!.expression, n);
        this.loopStack.pop();
        return;
      }
    }
    if (callee.type !== "Import" && callee.type !== "Super") this.walk(callee, n);
    for (let i = 0; i < args.length; i++) {
      const a = args[i]!.expression;
      if (!isLocalIdent(a)) this.walk(a, n);
    }
  }
}

/** A field value the generic walk meets: a node, or swc's wrapper (`{ spread, expression }`) of one. */
type ChildField = Node | { expression?: Expression };

/** `n` is the object of a member or the callee of a call: it is evaluated with its chain. */
function isChainLink(parent: WalkedNode, n: MemberExpression): boolean {
  if (parent.type === "MemberExpression") return parent.object === n;
  if (parent.type === "CallExpression" || parent.type === "NewExpression") return parent.callee === n;
  return false;
}
