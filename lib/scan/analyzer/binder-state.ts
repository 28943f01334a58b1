// What the first pass keeps, and how names are bound: the fields every later pass reads, the
// scan's budget and findings, and the bindings of declarations and destructuring patterns.
import type {
  BinaryExpression,
  CallExpression,
  Expression,
  HasSpan,
  MemberExpression,
  NewExpression,
  Node,
  ObjectPattern,
  Pattern,
  StringLiteral,
  TemplateLiteral,
  ThisExpression,
} from "@swc/types";
import { type Net, type RuleId } from "../rules";
import { type FnNode, type FnValueNode, GLOBAL_CTXT, type Ident, key, NO_PATH, type SrcNode } from "./ast";
import { CHARS_PER_STEP, MAX_FOLDED_CHARS, spanStart, TooComplex } from "./budget";
import { type V } from "./values";

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
  src?: SrcNode; // expression
  path?: (string | null)[]; // destructuring path (null = unknown key)
  argOf?: FnNode; // function node whose call arguments flow here
  index?: number;
  rest?: boolean;
  taintOnly?: boolean;
  source?: boolean; // tainted from the start (stdin)
  pos?: number; // where a destructured name sits, for findings reached through it
}

/** A call or `new` the binder records. */
export type Call = CallExpression | NewExpression;

export interface LoopRec {
  kind: "forof" | "for" | "while" | "forever" | "cb";
  node: Node & HasSpan & { body?: Node };
  iter: Expression | null;
  test: Expression | null;
  parent: number;
  start: number;
  end: number;
}

export abstract class BinderState {
  protected abstract evalIdent(n: Ident): V;
  protected abstract evalExpr(n: Node | null | undefined): V;
  protected abstract member(obj: V, k: string | null, pos: number): V;
  protected abstract isSensitive(v: V): boolean;
  protected abstract walk(node: Node, parent: Node | null): void;

  findings: RawFinding[] = [];
  /** Every non-builtin module loaded by a literal name, for the module graph to resolve. */
  readonly requests: ModuleRequest[] = [];
  protected seen = new Set<string>();
  protected binds = new Map<string, Bind[]>();
  protected fnName = new Map<FnValueNode, string>();
  protected fnReturns = new Map<FnValueNode, Expression[]>();
  protected fnTouchesInput = new Set<FnValueNode>();
  protected callsByKey = new Map<string, Call[]>(); // call nodes by callee binding
  protected callsByFn = new Map<FnValueNode, Call[]>(); // immediately invoked function -> its call nodes
  protected members: MemberExpression[] = [];
  protected calls: Call[] = [];
  protected globalIdents: Ident[] = [];
  protected strings: (StringLiteral | TemplateLiteral)[] = [];
  protected foldRoots: (BinaryExpression | TemplateLiteral)[] = [];
  protected patterns: { pat: ObjectPattern; src: Bind }[] = [];
  protected loops: LoopRec[] = [];
  protected loopStack: number[] = [];
  protected fnStack: FnNode[] = [];
  protected globalThisNodes = new Set<ThisExpression>();
  protected plainFnDepth = 0;
  protected sloppy = true;
  protected memo = new Map<Node, V>();
  protected identMemo = new Map<string, V>();
  /** What `o.p = x` assignments give `o.p`, by "o-key.p" (see memberBindValue). */
  protected memberMemo = new Map<string, V>();
  /** A function's returns, by the function's start (see fnResult). */
  protected returnMemo = new Map<number, V>();
  protected propMemo = new Map<Node, V>();
  protected propActive = new Set<Node>();
  protected taintMemo = new Map<string, boolean>();
  protected override: Map<string, V> | null = null;
  protected depth = 0;
  /** Evaluation steps taken so far and the most the scan may take (see budget.ts). */
  protected steps = 0;
  budget = Number.POSITIVE_INFINITY;
  protected memberBinds = 0;
  protected appends = new Map<string, Expression[]>();
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
  protected inert(n: Expression): boolean {
    let b: Node = n;
    for (;;) {
      const c = b as Expression;
      if (c.type === "MemberExpression") b = c.object;
      else if (c.type === "CallExpression" || c.type === "NewExpression") b = c.callee;
      else if (c.type === "OptionalChainingExpression") b = c.base;
      else if (c.type === "ParenthesisExpression") b = c.expression;
      else break;
    }
    if (b.type !== "Identifier") return false;
    const id = b as Ident;
    if (id.ctxt === GLOBAL_CTXT) return false;
    if (this.memberBinds > 0 && this.memberBindRoots.has(key(id))) return false;
    return this.evalIdent(id).t === "any";
  }

  // ---- bindings ----------------------------------------------------------------------------
  protected declare(id: Pattern) {
    if (id && id.type !== "Identifier") this.bindPattern(id, { taintOnly: true }, NO_PATH);
  }
  protected bind(id: Ident | Pattern, b: Bind) {
    const k = key(id as Ident);
    this.addBind(k, b);
  }
  protected addBind(k: string, b: Bind) {
    let l = this.binds.get(k);
    if (!l) this.binds.set(k, (l = []));
    l.push(b);
  }

  protected bindPattern(p: Pattern, b: Bind, path: (string | null)[]) {
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
        p.elements.forEach((e: Pattern | undefined, i: number) => {
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

  protected walkPatternDefaults(p: Pattern | undefined) {
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

  protected constKey(e: Expression): string | null {
    if (e.type === "StringLiteral") return e.value;
    if (e.type === "NumericLiteral") return String(e.value);
    return null; // resolved later in checkPattern
  }

  /** Walks a destructuring pattern over its source value so `const { env } = process` is a member read. */
  protected checkPattern(p: Pattern, src: () => V, path: string[]): void {
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
