// The AST rules. One walk over swc's tree records bindings (swc's resolver gives every identifier a
// scope-unique `ctxt`), calls, members, strings and loops; a small abstract evaluator then folds
// constants and follows aliases (variables, destructuring, function parameters and returns) to the
// well-known objects a tool must not reach. Where a dangerous position cannot be resolved, it fails.
/* eslint-disable @typescript-eslint/no-explicit-any */
import { isOpenVibeHost, foreignHostIn, hostOfUrl, longEncodedRun, looksLikeCode, decodeProbe } from "./text";
import { builtinModules } from "node:module";
import { MAX_TIMER_MS, type Net, type RuleId } from "./rules";

type N = any;

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

// ---- abstract values --------------------------------------------------------------------------
type V =
  | { t: "str"; s: string; p?: string; d?: boolean; c?: boolean }
  | { t: "num"; n: number }
  | { t: "ref"; p: string; kids?: Map<string, V> }
  | { t: "fn"; node: N }
  | { t: "obj"; props?: Map<string, N | V>; node?: N }
  | { t: "arr"; items: V[] }
  | { t: "m"; recv: V; name: string }
  | { t: "or"; vs: V[] }
  | { t: "any" };

const ANY: V = { t: "any" };
const GLOBAL_CTXT = 1;

const GLOBAL_NAME_LIST: Record<string, string> = {
  process: "process",
  globalThis: "global",
  global: "global",
  window: "global",
  self: "global",
  frames: "global",
  require: "require",
  module: "module",
  eval: "eval",
  Function: "Function",
  fetch: "fetch",
  XMLHttpRequest: "XMLHttpRequest",
  WebSocket: "WebSocket",
  EventSource: "EventSource",
  navigator: "navigator",
  setTimeout: "setTimeout",
  setInterval: "setInterval",
  setImmediate: "setImmediate",
  atob: "atob",
  btoa: "btoa",
  Buffer: "Buffer",
  String: "String",
  Object: "Object",
  Reflect: "Reflect",
  Math: "Math",
  JSON: "JSON",
  Array: "Array",
  Number: "Number",
  URL: "URL",
  decodeURIComponent: "decodeURIComponent",
  decodeURI: "decodeURI",
  unescape: "unescape",
  parseInt: "parseInt",
  WebAssembly: "WebAssembly",
  Proxy: "Proxy",
  Symbol: "Symbol",
  Date: "Date",
  RegExp: "RegExp",
  Promise: "Promise",
  Boolean: "Boolean",
  console: "console",
  TextDecoder: "TextDecoder",
  Uint8Array: "Uint8Array",
  queueMicrotask: "queueMicrotask",
  Atomics: "Atomics",
};

const GLOBAL_NAMES = new Map(Object.entries(GLOBAL_NAME_LIST));

/** Objects whose properties are not functions: `.constructor` of them is an ordinary constructor. */
const OBJECT_REFS = new Set([
  "process",
  "global",
  "module",
  "Math",
  "JSON",
  "Reflect",
  "console",
  "navigator",
  "fs",
  "fs.promises",
  "WebAssembly",
]);
/** A computed, unresolvable property on one of these fails closed. */
const SENSITIVE_ROOTS = new Set([
  "process",
  "global",
  "module",
  "Module",
  "require",
  "fs",
  "fs.promises",
  "process.mainModule",
]);

const FORBIDDEN_MODULES = new Set([
  "child_process",
  "vm",
  "worker_threads",
  "cluster",
  "inspector",
  "wasi",
  "repl",
  "v8",
  "trace_events",
  "module.register",
]);
/** Ways into Node's module loader that can load code the module graph does not follow. */
const MODULE_LOADER = new Set([
  "createRequire",
  "require.extensions",
  "module.paths",
  "module.load",
  "Module.Module",
  "Module.findPackageJSON",
  "Module.syncBuiltinESMExports",
  "Module.globalPaths",
  "Module.runMain",
  "Module.wrap",
  "Module.wrapper",
  "import.meta.resolve",
]);
const NET_MODULES = new Set(["http", "https", "http2", "net", "tls", "dgram", "dns", "dns.promises", "undici", "tty"]);
const NET_GLOBALS = new Set(["fetch", "XMLHttpRequest", "WebSocket", "EventSource", "navigator.sendBeacon"]);
const FS_WRITE = new Set(
  (
    "writeFile writeFileSync appendFile appendFileSync mkdir mkdirSync mkdtemp mkdtempSync rm rmSync rmdir rmdirSync " +
    "unlink unlinkSync rename renameSync symlink symlinkSync link linkSync copyFile copyFileSync cp cpSync truncate " +
    "truncateSync ftruncate ftruncateSync chmod chmodSync lchmod lchmodSync fchmod fchmodSync chown chownSync lchown " +
    "lchownSync fchown fchownSync utimes utimesSync futimes futimesSync lutimes lutimesSync write writeSync writev " +
    "writevSync createWriteStream WriteStream fsync fsyncSync fdatasync fdatasyncSync"
  ).split(" "),
);
const FS_OPEN = new Set(["open", "openSync"]);
const STDIO_WRITES = new Set(["writeSync", "write", "writeFileSync", "appendFileSync"]);
const READ_FLAGS = new Set(["r", "rs", "sr"]);
const ITER_METHODS = new Set([
  "forEach",
  "map",
  "filter",
  "reduce",
  "reduceRight",
  "some",
  "every",
  "find",
  "findIndex",
  "findLast",
  "findLastIndex",
  "flatMap",
]);
const FN_REFS_SAFE_CALL = new Set(["console.log", "console.error", "console.warn", "console.info", "console.debug"]);

const BUILTINS = new Set(builtinModules);

/** Node's own modules: `node:` anything (Node refuses an unknown one) and the bare builtin names. */
export function isBuiltinModule(spec: string): boolean {
  return spec.startsWith("node:") || BUILTINS.has(spec);
}

function normalizeModule(spec: string): string {
  let s = spec.startsWith("node:") ? spec.slice(5) : spec;
  if (s === "fs/promises") s = "fs.promises";
  else if (s === "dns/promises") s = "dns.promises";
  else if (s === "timers/promises") s = "timersp";
  else if (s === "module") s = "Module";
  else if (s.startsWith("child_process/") || s.startsWith("worker_threads/")) s = s.split("/")[0]!;
  return s;
}

const NORMALIZE_ROOTS = new Set(["global", "process", "require", "module", "Module", "timers", "Function"]);

function normalizePath(p: string): string {
  const dot = p.indexOf(".");
  if (dot === -1) return p;
  const root = p.slice(0, dot);
  if (!NORMALIZE_ROOTS.has(root) && !p.endsWith(".default")) return p;
  const rest = p.slice(dot + 1);
  if (root === "global") {
    const first = rest.split(".")[0]!;
    const g = GLOBAL_NAMES.get(first);
    if (g !== undefined) return normalizePath(g + rest.slice(first.length));
    return p;
  }
  if (p.startsWith("process.mainModule")) return normalizePath("module" + p.slice("process.mainModule".length));
  if (p.startsWith("require.main")) return normalizePath("module" + p.slice("require.main".length));
  if (p.startsWith("module.constructor")) return normalizePath("Module" + p.slice("module.constructor".length));
  if (root === "module" || root === "Module") {
    const last = p.slice(p.lastIndexOf(".") + 1);
    if (p.startsWith("module.exports")) return p;
    if (last === "require" || last === "_load") return "require";
    if (last === "createRequire" || last === "createRequireFromPath") return "createRequire";
    if (last === "register") return "module.register";
    if (p.startsWith("module.parent") || p.startsWith("module.children")) return "module";
  }
  if (p === "process.getBuiltinModule") return "require";
  if (root === "timers" && (rest === "setTimeout" || rest === "setInterval" || rest === "setImmediate")) return rest;
  if (p.endsWith(".default") && !p.startsWith("module.exports")) return normalizePath(p.slice(0, -8));
  if (p.startsWith("Function.prototype.constructor")) return "Function";
  return p;
}

// ---- the analysis -----------------------------------------------------------------------------
interface Bind {
  src?: N; // expression
  path?: (string | null)[]; // destructuring path (null = unknown key)
  argOf?: N; // function node whose call arguments flow here
  index?: number;
  rest?: boolean;
  taintOnly?: boolean;
  source?: boolean; // tainted from the start (stdin)
  pos?: number; // where a destructured name sits, for findings reached through it
}

interface LoopRec {
  kind: "forof" | "for" | "while" | "forever" | "cb";
  node: N;
  iter: N | null;
  test: N | null;
  parent: number;
  start: number;
  end: number;
}

const RULE_CACHE = new Map<string, RuleId | null>();
function basePathRule(p: string): RuleId | null {
  if (p === "process.env" || p.startsWith("process.env.")) return "env.read";
  if (p === "eval" || p === "Function") return "code.eval";
  if (p === "process.binding" || p === "process._linkedBinding" || p === "process.dlopen" || p === "process.reallyExit")
    return "process.native";
  if (p === "process.execve" || p === "process._fork") return "process.spawn";
  if (p === "WebAssembly" || p.startsWith("WebAssembly.")) return "module.forbidden";
  if (p === "module.register") return "module.forbidden";
  if (
    MODULE_LOADER.has(p) ||
    p.startsWith("Module._") ||
    p.startsWith("require.resolve") ||
    p.startsWith("require.cache")
  )
    return "module.loader";
  const dot = p.indexOf(".");
  const root = dot === -1 ? p : p.slice(0, dot);
  if (FORBIDDEN_MODULES.has(root)) return "module.forbidden";
  if (p.startsWith("fs.")) {
    const last = p.slice(p.lastIndexOf(".") + 1);
    if (FS_WRITE.has(last)) return "fs.write";
  }
  if (NET_GLOBALS.has(p) || NET_MODULES.has(p)) return "net.use";
  return null;
}

// Per node type, the keys that can hold child nodes (swc's JSON has a fixed key set per type).
const CHILD_KEYS = new Map<string, string[]>();
const SCALAR_KEYS = new Set([
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

export class Analyzer {
  findings: RawFinding[] = [];
  /** Every non-builtin module loaded by a literal name, for the module graph to resolve. */
  readonly requests: ModuleRequest[] = [];
  private seen = new Set<string>();
  private binds = new Map<string, Bind[]>();
  private fnName = new Map<N, string>();
  private fnReturns = new Map<N, N[]>();
  private fnTouchesInput = new Set<N>();
  private callsByKey = new Map<string, N[]>(); // call nodes by callee binding
  private callsByFn = new Map<N, N[]>(); // immediately invoked function -> its call nodes
  private members: N[] = [];
  private calls: N[] = [];
  private globalIdents: N[] = [];
  private strings: N[] = [];
  private foldRoots: N[] = [];
  private patterns: { pat: N; src: Bind }[] = [];
  private loops: LoopRec[] = [];
  private loopStack: number[] = [];
  private fnStack: N[] = [];
  private globalThisNodes = new Set<N>();
  private plainFnDepth = 0;
  private sloppy = true;
  private memo = new Map<N, V>();
  private identMemo = new Map<string, V>();
  private taintMemo = new Map<string, boolean>();
  private override: Map<string, V> | null = null;
  private depth = 0;
  private memberBinds = 0;
  private appends = new Map<string, N[]>();
  private memberBindRoots = new Set<string>();
  /** Callee positions of `fs.writeSync(1, …)`-style writes to stdout/stderr, which are output, not files. */
  private stdoutWrites = new Set<number>();

  constructor(private readonly net: Net) {}

  private report(rule: RuleId, pos: number, detail?: string) {
    if (pos < 1) pos = 1;
    if (rule === "fs.write" && this.stdoutWrites.has(pos)) return;
    const k = rule + "@" + pos;
    if (this.seen.has(k)) return;
    this.seen.add(k);
    this.findings.push({ rule, pos, detail });
  }

  run(program: N) {
    this.sloppy = program.type === "Script" && !hasUseStrict(program.body);
    this.walkList(program.body);
    for (let _i1 = 0, _a1 = this.members; _i1 < _a1.length; _i1++) {
      const m = _a1[_i1]!;
      if (!this.inert(m)) this.evalExpr(m);
    }
    for (let _i2 = 0, _a2 = this.calls; _i2 < _a2.length; _i2++) {
      const c = _a2[_i2]!;
      if (this.inert(c)) continue;
      const v = this.evalExpr(c);
      if (v.t === "str" || v.t === "or") this.checkStringValues(v, c.span.start);
    }
    for (let _i3 = 0, _a3 = this.globalIdents; _i3 < _a3.length; _i3++) {
      const g = _a3[_i3]!;
      this.evalExpr(g);
    }
    for (const a of this.spreadArgs)
      if (this.isSensitive(this.evalExpr(a)))
        this.report("scan.unresolved", a.span.start, "spread of a sensitive object");
    for (let _i4 = 0, _a4 = this.patterns; _i4 < _a4.length; _i4++) {
      const p = _a4[_i4]!;
      this.checkPattern(p.pat, () => this.evalBind(p.src), []);
    }
    for (let _i5 = 0, _a5 = this.strings; _i5 < _a5.length; _i5++) {
      const s = _a5[_i5]!;
      this.checkLiteral(s);
    }
    for (let _i6 = 0, _a6 = this.foldRoots; _i6 < _a6.length; _i6++) {
      const r = _a6[_i6]!;
      const v = this.evalExpr(r);
      this.checkStringValues(v, r.span.start);
    }
    this.checkAppends();
    this.checkLoops();
  }

  /** `s = "…"; s += "…"; s += "…"` is one value too: join the constant pieces in source order. */
  private checkAppends() {
    for (const [k, pieces] of this.appends) {
      if (pieces.length < 2 && !this.binds.get(k)?.some((b) => b.src && !b.taintOnly)) continue;
      let s = "";
      let p = "";
      for (const b of this.binds.get(k) ?? []) {
        if (!b.src || b.taintOnly || b.path) continue;
        const v = this.evalExpr(b.src);
        if (v.t === "str") {
          s += v.s;
          p += v.p ?? v.s;
        }
        break;
      }
      for (let _i7 = 0, _a7 = pieces; _i7 < _a7.length; _i7++) {
        const piece = _a7[_i7]!;
        const v = this.evalExpr(piece);
        if (v.t !== "str") continue;
        s += v.s;
        p += v.p ?? v.s;
      }
      if (s.length > 0)
        this.checkStr({ t: "str", s, p: p === s ? undefined : p, c: true }, pieces[0]!.span.start, false);
    }
  }

  /**
   * A member or call whose chain starts at a local whose value is unknown data (the usual case:
   * parsed input, loop variables) cannot reach anything the rules care about, so it is not evaluated.
   */
  private inert(n: N): boolean {
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
  private walkList(list: N[]) {
    for (let i = 0; i < list.length; i++) {
      const n = list[i];
      if (n && typeof n === "object") this.walk(n, null);
    }
  }

  private walk(n: N, parent: N) {
    switch (n.type) {
      case "Identifier":
        if (n.ctxt === GLOBAL_CTXT && GLOBAL_NAMES.has(n.value) && parent?.type !== "UnaryExpression")
          this.globalIdents.push(n);
        return;
      case "MemberExpression": {
        // an inner link of a chain is evaluated with the chain
        if (!(parent && (parent.object === n || parent.callee === n))) this.members.push(n);
        const o = n.object;
        if (
          o.type === "Identifier" &&
          o.ctxt === GLOBAL_CTXT &&
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
        for (let i = 0; i < n.declarations.length; i++) this.walk(n.declarations[i], n);
        return;
      case "VariableDeclarator":
        if (n.id.type === "Identifier" && n.init) {
          this.bind(n.id, { src: n.init });
          if (isFn(n.init)) this.fnName.set(n.init, key(n.id));
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
      case "AwaitExpression":
      case "UpdateExpression":
        this.walk(n.expression ?? n.argument, n);
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
        this.fnName.set(n, key(n.identifier));
        this.visitFunction(n, n.params, n.body, false);
        return;
      case "FunctionExpression":
        if (n.identifier) this.fnName.set(n, key(n.identifier));
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
        const f = n.function ?? n;
        this.visitFunction(f, f.params ?? (n.param ? [n.param] : []), f.body, true);
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
        if (n.source) this.checkReexport(n);
        return;
      case "ExportDefaultDeclaration":
      case "ExportDefaultExpression": {
        const e = n.decl ?? n.expression;
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
        this.enterLoop(n.test ? "for" : "forever", n, null, n.test);
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

  private spreadArgs: N[] = [];

  private walkChildren(n: N) {
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
  private enterLoop(kind: LoopRec["kind"], node: N, iter: N | null, test: N | null) {
    const idx = this.loops.length;
    const parent = this.loopStack.length ? this.loopStack[this.loopStack.length - 1]! : -1;
    this.loops.push({ kind, node, iter, test, parent, start: node.span.start, end: node.span.end });
    this.loopStack.push(idx);
  }

  private markInput() {
    for (let _i9 = 0, _a9 = this.fnStack; _i9 < _a9.length; _i9++) {
      const f = _a9[_i9]!;
      this.fnTouchesInput.add(f);
    }
  }

  private visitFunction(fn: N, params: N[], body: N, inheritsThis: boolean) {
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

  private pushReturn(fn: N, e: N) {
    let r = this.fnReturns.get(fn);
    if (!r) this.fnReturns.set(fn, (r = []));
    r.push(e);
  }

  private exportedHandler(fn: N) {
    const params = fn.params ?? [];
    for (let p of params) {
      if (p.type === "Parameter") p = p.pat;
      if (p.type === "AssignmentPattern") p = p.left;
      this.bindPattern(p, { source: true }, NO_PATH);
    }
  }

  private visitAssign(n: N) {
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

  private bindLoopLeft(left: N, right: N) {
    const pat = left.type === "VariableDeclaration" ? left.declarations[0].id : left;
    this.bindPattern(pat, { src: right, taintOnly: true }, NO_PATH);
    if (pat.type !== "Identifier") this.bindPattern(pat, { src: right, path: [null] }, [null]);
  }

  private visitCall(n: N) {
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

  private visitImport(n: N) {
    const spec = n.source.value as string;
    const mod = this.loadModule(spec, n.source.span.start, n.span.start);
    for (let _i10 = 0, _a10 = n.specifiers; _i10 < _a10.length; _i10++) {
      const s = _a10[_i10]!;
      let v: V;
      if (s.type === "ImportSpecifier") {
        const name = s.imported ? (s.imported.value as string) : (s.local.value as string);
        v = this.member(mod, name, s.span.start);
      } else v = mod;
      this.identMemo.set(key(s.local), v);
    }
  }

  private checkReexport(n: N) {
    const mod = this.loadModule(n.source.value, n.source.span.start, n.span.start);
    for (const s of n.specifiers ?? []) {
      const name = s.orig?.value;
      if (typeof name === "string") this.member(mod, name, s.span.start);
    }
  }

  // ---- bindings ----------------------------------------------------------------------------
  private declare(id: N) {
    if (id && id.type !== "Identifier") this.bindPattern(id, { taintOnly: true }, NO_PATH);
  }
  private bind(id: N, b: Bind) {
    const k = key(id);
    this.addBind(k, b);
  }
  private addBind(k: string, b: Bind) {
    let l = this.binds.get(k);
    if (!l) this.binds.set(k, (l = []));
    l.push(b);
  }

  private bindPattern(p: N, b: Bind, path: (string | null)[]) {
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

  private walkPatternDefaults(p: N) {
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

  private constKey(e: N): string | null {
    if (e.type === "StringLiteral") return e.value;
    if (e.type === "NumericLiteral") return String(e.value);
    return null; // resolved later in checkPattern
  }

  /** Walks a destructuring pattern over its source value so `const { env } = process` is a member read. */
  private checkPattern(p: N, src: () => V, path: string[]): void {
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

  private evalBind(b: Bind): V {
    if (b.source || b.taintOnly) return ANY;
    let v: V;
    if (b.src) v = this.evalExpr(b.src);
    else if (b.argOf) v = this.argValue(b.argOf, b.index!);
    else v = ANY;
    if (b.path) for (const k of b.path) v = this.member(v, k, b.pos ?? -1);
    return v;
  }

  private callSites(fn: N): N[] {
    const name = this.fnName.get(fn);
    const byName = name ? this.callsByKey.get(name) : undefined;
    const direct = this.callsByFn.get(fn);
    return byName && direct ? byName.concat(direct) : (byName ?? direct ?? []);
  }

  private argValue(fn: N, index: number): V {
    const sites = this.callSites(fn);
    if (!sites.length) return ANY;
    const vs: V[] = [];
    for (let _i14 = 0, _a14 = sites; _i14 < _a14.length; _i14++) {
      const c = _a14[_i14]!;
      const a = c.arguments[index];
      vs.push(a && !a.spread ? this.evalExpr(a.expression) : ANY);
    }
    return union(vs);
  }

  private evalIdent(n: N): V {
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

  // ---- evaluation --------------------------------------------------------------------------
  evalExpr(n: N): V {
    if (!n) return ANY;
    // only calls are memoized: other nodes skip the lookup
    const t = n.type;
    const memoizable = t === "CallExpression" || t === "NewExpression";
    if (memoizable && !this.override) {
      const cached = this.memo.get(n);
      if (cached) return cached;
    }
    if (this.depth > 200) return ANY;
    this.depth++;
    const v = this.evalInner(n);
    this.depth--;
    if (memoizable && !this.override) this.memo.set(n, v);
    return v;
  }

  private evalInner(n: N): V {
    switch (n.type) {
      case "Identifier": {
        const v = this.evalIdent(n);
        if (n.ctxt === GLOBAL_CTXT && v.t === "ref" && GLOBAL_NAMES.get(n.value) === v.p)
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
          const extra = this.binds.get(key(n.object) + "." + k);
          if (extra) v = union([v, ...extra.map((b) => this.evalBind(b))]);
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
          const q = n.quasis[i];
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
          return { t: "str", s: n.template.quasis.map((q: N) => q.raw).join(""), c: true };
        }
        this.applyCall(tag, [n.template], n, false);
        return ANY;
      }
    }
    return ANY;
  }

  private evalBinary(n: N): V {
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
        if (obj.node && (obj.node.type === "ClassExpression" || obj.node.type === "ClassDeclaration") && k !== null) {
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
  private propsOf(obj: { props?: Map<string, N | V>; node?: N }): Map<string, N | V> {
    if (obj.props) return obj.props;
    const props = new Map<string, N | V>();
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

  private propValue(x: N | V): V {
    if (x && typeof x === "object" && "t" in x) return x as V;
    return this.evalExpr(x as N);
  }

  private refMember(obj: { t: "ref"; p: string }, k: string, pos: number): V {
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

  private refAt(p: string, from: string, pos: number): V {
    this.refCreated(p, from, pos);
    return ref(p);
  }

  /** Reports a newly reached well-known path (once: a path already dangerous is not re-reported). */
  private refCreated(p: string, from: string, pos: number) {
    if (pos < 0) pos = 0;
    const rule = this.pathRule(p);
    if (!rule) return;
    if (from && this.pathRule(from) === rule) return;
    this.report(rule, pos, p);
  }

  private pathRule(p: string): RuleId | null {
    let r = RULE_CACHE.get(p);
    if (r === undefined) {
      r = basePathRule(p);
      RULE_CACHE.set(p, r);
    }
    if (r === "net.use") return this.net === "deny" ? "net.denied" : "net.use";
    return r;
  }

  private isSensitive(v: V): boolean {
    if (v.t === "ref") return SENSITIVE_ROOTS.has(v.p) || v.p === "process.env";
    if (v.t === "or") return v.vs.some((x) => this.isSensitive(x));
    return false;
  }

  private loadModule(spec: string, pos: number, stmtPos: number): V {
    if (/^(data|https?|file|blob):/i.test(spec)) {
      this.report(/^data:/i.test(spec) ? "payload.code" : "module.forbidden", pos, spec.slice(0, 60));
      return ANY;
    }
    if (!isBuiltinModule(spec)) this.requests.push({ spec, pos });
    const m = normalizeModule(spec);
    this.refCreated(m, "", stmtPos);
    return ref(m);
  }

  private evalCall(n: N): V {
    const isNew = n.type === "NewExpression";
    const raw: N[] = n.arguments ?? NO_ARGS;
    const ct = n.callee.type;
    if (ct === "Import") {
      const a0 = raw[0] && !raw[0].spread ? raw[0].expression : null;
      const sv = a0 ? this.evalExpr(a0) : ANY;
      if (sv.t === "str") return this.loadModule(sv.s, a0.span.start, n.span.start);
      this.report("module.unresolved", n.span.start);
      return ANY;
    }
    if (ct === "Super") return ANY;
    const callee = this.evalExpr(n.callee);
    // only calls of well-known values and methods look at their arguments
    if (callee.t !== "ref" && callee.t !== "m" && callee.t !== "or") return this.applyCall(callee, NO_ARGS, n, isNew);
    const args: N[] = new Array(raw.length);
    for (let i = 0; i < raw.length; i++) args[i] = raw[i].spread ? null : raw[i].expression;
    return this.applyCall(callee, args, n, isNew);
  }

  private argsVals(args: N[]): V[] {
    const out: V[] = new Array(args.length);
    for (let i = 0; i < args.length; i++) {
      const a = args[i];
      // object literals are read by hostOf() directly; building their maps here is wasted work
      out[i] = a && a.type !== "ObjectExpression" ? this.evalExpr(a) : ANY;
    }
    return out;
  }

  private applyCall(callee: V, args: N[], n: N, isNew: boolean, argVals?: V[]): V {
    if (callee.t === "fn") {
      if (isNew && callee.node && (callee.node.type === "ClassExpression" || callee.node.type === "ClassDeclaration"))
        return callee;
      return this.fnResult(callee.node);
    }
    if (callee.t !== "ref" && callee.t !== "m" && callee.t !== "or") return ANY;
    const av = argVals ?? this.argsVals(args);
    if (callee.t === "or") {
      const out: V[] = [];
      for (let _i17 = 0, _a17 = callee.vs; _i17 < _a17.length; _i17++) {
        const c = _a17[_i17]!;
        out.push(this.applyCall(c, args, n, isNew, av));
      }
      return union(out);
    }
    const pos = n.span.start;
    if (callee.t === "m") return this.applyMethod(callee, n, av);
    const p = callee.p;
    switch (p) {
      case "require": {
        const sv = av[0] ?? ANY;
        if (sv.t === "str") return this.loadModule(sv.s, pos, pos);
        this.report("module.unresolved", pos);
        return ANY;
      }
      case "createRequire":
        return ref("require");
      case "eval":
      case "Function":
        this.report("code.eval", pos, p);
        return ANY;
      case "ctor?":
        if (args.length) this.report("scan.unresolved", pos, "constructor of an unknown value");
        return ANY;
      case "setTimeout":
      case "setInterval":
      case "setImmediate": {
        const v = av;
        const body = v[0];
        if (
          body &&
          (body.t === "str" ||
            (args[0] &&
              (args[0].type === "TemplateLiteral" ||
                (args[0].type === "BinaryExpression" && args[0].operator === "+"))))
        )
          this.report("code.eval", pos, "string timer");
        if (p !== "setImmediate" && args[1]) this.checkDelay(v[1]!, args[1], pos);
        return ANY;
      }
      case "timersp.setTimeout":
      case "timersp.setInterval": {
        const v = av;
        if (args[0]) this.checkDelay(v[0]!, args[0], pos);
        return ANY;
      }
      case "String.fromCharCode":
      case "String.fromCodePoint": {
        const codes = this.charCodes(av, args, n);
        if (codes === null) return ANY;
        try {
          return decoded(p === "String.fromCharCode" ? String.fromCharCode(...codes) : String.fromCodePoint(...codes));
        } catch {
          return ANY;
        }
      }
      case "Atomics.wait":
      case "Atomics.waitAsync":
        // no timeout waits for ever
        if (args.length < 4) this.report("timer.long", pos);
        else if (args[3]) this.checkDelay(av[3]!, args[3], pos);
        return ANY;
      case "atob": {
        const s = asStr(av[0] ?? ANY);
        return s === null ? ANY : decoded(Buffer.from(s, "base64").toString("latin1"));
      }
      case "decodeURIComponent":
      case "decodeURI":
      case "unescape": {
        const s = asStr(av[0] ?? ANY);
        if (s === null) return ANY;
        try {
          return decoded(p === "unescape" ? unescape(s) : decodeURIComponent(s));
        } catch {
          return ANY;
        }
      }
      case "Buffer.from": {
        const v = av;
        const s = v[0] ? asStr(v[0]) : null;
        const enc = v[1] ? asStr(v[1]) : "utf8";
        if (s !== null && enc !== null && Buffer.isEncoding(enc))
          return {
            t: "obj",
            props: new Map([["__buf", decoded(Buffer.from(s, enc as BufferEncoding).toString("latin1"))]]),
          };
        if (v[0]?.t === "arr" && v[0].items.every((x) => x.t === "num")) {
          return {
            t: "obj",
            props: new Map([
              ["__buf", decoded(Buffer.from(v[0].items.map((x) => (x as { n: number }).n)).toString("latin1"))],
            ]),
          };
        }
        return ANY;
      }
      case "Reflect.get": {
        const v = av;
        const k = v[1] ? asStr(v[1]) : null;
        return this.member(v[0] ?? ANY, k, pos);
      }
      case "Object.getOwnPropertyDescriptor": {
        const v = av;
        const k = v[1] ? asStr(v[1]) : null;
        const val = this.member(v[0] ?? ANY, k, pos);
        return {
          t: "obj",
          props: new Map([
            ["value", val],
            ["get", ANY],
          ]),
        };
      }
      case "Reflect.apply": {
        const v = av;
        const arr = v[2];
        return this.applyCall(v[0] ?? ANY, [], n, false, arr && arr.t === "arr" ? arr.items : []);
      }
      case "Reflect.construct": {
        const v = av;
        const arr = v[1];
        return this.applyCall(v[0] ?? ANY, [], n, true, arr && arr.t === "arr" ? arr.items : []);
      }
      case "Object.getPrototypeOf":
      case "Reflect.getPrototypeOf": {
        const v = av[0] ?? ANY;
        if (v.t === "fn" || v.t === "m" || (v.t === "ref" && !OBJECT_REFS.has(v.p))) return { t: "fn", node: null };
        return ANY;
      }
      case "Promise.resolve":
        return av[0] ?? ANY;
      case "Uint8Array":
      case "Uint8Array.from": {
        const a = av[0];
        if (a?.t === "arr" && a.items.every((x) => x.t === "num")) {
          return {
            t: "obj",
            props: new Map([
              ["__buf", decoded(Buffer.from(a.items.map((x) => (x as { n: number }).n)).toString("latin1"))],
            ]),
          };
        }
        return ANY;
      }
      case "TextDecoder":
        return ref("TextDecoder.instance");
      case "TextDecoder.instance.decode": {
        const a = av[0];
        const inner = a?.t === "obj" ? a.props?.get("__buf") : undefined;
        return inner && (inner as V).t === "str"
          ? decoded(Buffer.from((inner as { s: string }).s, "latin1").toString("utf8"))
          : ANY;
      }
      case "Array.from":
      case "Array": {
        const a0 = args[0];
        const len =
          a0?.type === "ObjectExpression"
            ? a0.properties.find((q: N) => q.type === "KeyValueProperty" && q.key.value === "length")?.value
            : p === "Array"
              ? a0
              : null;
        if (len && len.type !== "NumericLiteral" && this.tainted(len, 0) && !this.sizeDerived(len, 0))
          this.report("loop.input", pos, "array sized by input");
        return ANY;
      }
      case "URL": {
        return ANY;
      }
    }
    if (
      p === "fetch" ||
      p === "WebSocket" ||
      p === "EventSource" ||
      p.endsWith(".request") ||
      p.endsWith(".get") ||
      p === "http2.connect" ||
      p === "net.connect" ||
      p === "net.createConnection" ||
      p === "tls.connect"
    ) {
      const root = p.split(".")[0]!;
      if (p === "fetch" || p === "WebSocket" || p === "EventSource" || NET_MODULES.has(root))
        this.checkDestination(args, pos);
    }
    if (p.startsWith("fs.")) {
      const last = p.slice(p.lastIndexOf(".") + 1);
      if (FS_OPEN.has(last)) {
        const v = av;
        const flag = v[1];
        const readOnly =
          !flag || flag.t === "fn" || (flag.t === "str" && READ_FLAGS.has(flag.s)) || args[1] === undefined;
        if (!readOnly) this.report("fs.write", pos, "open for writing");
      }
    }
    // a sensitive object handed to a library function can be enumerated or dumped (JSON.stringify(process))
    const v = av;
    if (!FN_REFS_SAFE_CALL.has(p)) {
      for (let i = 0; i < v.length; i++)
        if (this.isSensitive(v[i]!))
          this.report("scan.unresolved", args[i]?.span.start ?? pos, "sensitive object passed to " + p);
    }
    if (p.endsWith(".toString") || p === "String") {
      return ANY;
    }
    return ANY;
  }

  private applyMethod(m: { recv: V; name: string }, n: N, av: V[]): V {
    const r = m.recv;
    const name = m.name;
    if (name === "call" || name === "apply" || name === "bind") {
      const v = av;
      if (name === "bind") return r;
      const rest = name === "call" ? v.slice(1) : v[1] && v[1].t === "arr" ? v[1].items : [];
      return this.applyCall(r, [], n, false, rest);
    }
    if (r.t === "str") {
      const v = av;
      const s = r.s;
      const a0 = v[0] ? asStr(v[0]) : null;
      switch (name) {
        case "split":
          if (a0 === null) return ANY;
          return { t: "arr", items: s.split(a0).map((x) => ({ t: "str", s: x, d: r.d }) as V) };
        case "concat": {
          const parts = v.map(asStr);
          if (parts.some((x) => x === null)) return ANY;
          return { t: "str", s: s + parts.join(""), c: true, d: r.d };
        }
        case "toLowerCase":
          return { t: "str", s: s.toLowerCase(), d: r.d, c: true };
        case "toUpperCase":
          return { t: "str", s: s.toUpperCase(), d: r.d, c: true };
        case "trim":
          return { t: "str", s: s.trim(), d: r.d, c: true };
        case "slice":
        case "substring":
        case "substr":
        case "charAt": {
          const nums = v.map((x) => (x.t === "num" ? x.n : undefined));
          const out =
            name === "slice"
              ? s.slice(nums[0], nums[1])
              : name === "substring"
                ? s.substring(nums[0] ?? 0, nums[1])
                : name === "substr"
                  ? s.substr(nums[0] ?? 0, nums[1])
                  : s.charAt(nums[0] ?? 0);
          return { t: "str", s: out, d: r.d, c: true };
        }
        case "replace":
        case "replaceAll": {
          const b = v[1] ? asStr(v[1]) : null;
          if (a0 === null || b === null) return ANY;
          return { t: "str", s: name === "replace" ? s.replace(a0, () => b) : s.split(a0).join(b), d: true, c: true };
        }
        case "repeat":
          return v[0]?.t === "num" && v[0].n < 1000 ? { t: "str", s: s.repeat(v[0].n), c: true } : ANY;
        case "charCodeAt":
          return { t: "num", n: s.charCodeAt(v[0]?.t === "num" ? v[0].n : 0) };
      }
      return ANY;
    }
    if (r.t === "arr") {
      const v = av;
      switch (name) {
        case "join": {
          const sep = v[0] ? asStr(v[0]) : ",";
          if (sep === null) return ANY;
          const parts: string[] = [];
          const pv: string[] = [];
          let d = false;
          for (let _i19 = 0, _a19 = r.items; _i19 < _a19.length; _i19++) {
            const it = _a19[_i19]!;
            const s = asStr(it);
            if (s === null) return ANY;
            parts.push(s);
            pv.push(it.t === "str" ? (it.p ?? it.s) : s);
            if (it.t === "str" && it.d) d = true;
          }
          const s = parts.join(sep);
          const p = pv.join(sep);
          return { t: "str", s, p: p === s ? undefined : p, c: true, d };
        }
        case "reverse":
          return {
            t: "arr",
            items: r.items
              .slice()
              .reverse()
              .map((x) => (x.t === "str" ? { ...x, d: true } : x)),
          };
        case "concat":
          return { t: "arr", items: r.items.concat(...v.map((x) => (x.t === "arr" ? x.items : [x]))) };
        case "map": {
          const f = v[0];
          if (!f) return ANY;
          const out: V[] = [];
          for (let i = 0; i < r.items.length && i < 4096; i++)
            out.push(this.callWith(f, [r.items[i]!, { t: "num", n: i }], n));
          return { t: "arr", items: out };
        }
      }
      return ANY;
    }
    if (r.t === "obj" && r.props?.has("__buf") && name === "toString") {
      const inner = r.props.get("__buf") as V;
      const v = av;
      const enc = v[0] ? asStr(v[0]) : "utf8";
      if (inner.t !== "str" || enc === null) return ANY;
      if (enc === "utf8" || enc === "utf-8" || enc === "latin1" || enc === "binary" || enc === "ascii")
        return decoded(Buffer.from(inner.s, "latin1").toString(enc as BufferEncoding));
      if (Buffer.isEncoding(enc))
        return { t: "str", s: Buffer.from(inner.s, "latin1").toString(enc as BufferEncoding), c: true };
      return ANY;
    }
    return ANY;
  }

  /** The numbers a char-code call receives, spread arrays (`...codes`) included; null if any is unknown. */
  private charCodes(av: V[], args: N[], n: N): number[] | null {
    const codes: number[] = [];
    const spread = args.some((a) => a === null);
    const raw: N[] = spread ? (n.arguments ?? NO_ARGS) : NO_ARGS;
    for (let i = 0; i < av.length; i++) {
      const x = spread && raw[i]?.spread ? this.evalExpr(raw[i].expression) : av[i]!;
      if (x.t === "num") codes.push(x.n);
      else if (spread && raw[i]?.spread && x.t === "arr") {
        for (const y of x.items) {
          if (y.t !== "num") return null;
          codes.push(y.n);
        }
      } else return null;
    }
    return codes;
  }

  /** A delay over MAX_TIMER_MS after folding (strings count as Node coerces them), or one the input sets. */
  private checkDelay(v: V, arg: N, pos: number) {
    const n = v.t === "num" ? v.n : v.t === "str" ? Number(v.s) : NaN;
    if (n > MAX_TIMER_MS || (Number.isNaN(n) && this.tainted(arg, 0))) this.report("timer.long", pos);
  }

  /** Applies a function value to known arguments (for `.map(c => String.fromCharCode(c ^ 7))`). */
  private callWith(f: V, argv: V[], n: N): V {
    if (f.t === "ref" || f.t === "m") return this.applyCall(f, [], n, false, argv.slice(0, 1));
    if (f.t !== "fn" || !f.node || (f.node.type !== "ArrowFunctionExpression" && f.node.type !== "FunctionExpression"))
      return ANY;
    const fn = f.node;
    const ov = new Map<string, V>(this.override ?? []);
    (fn.params as N[]).forEach((p: N, i: number) => {
      const id = p.type === "Parameter" ? p.pat : p;
      if (id.type === "Identifier") ov.set(key(id), argv[i] ?? ANY);
    });
    const saved = this.override;
    this.override = ov;
    try {
      const rets = this.fnReturns.get(fn) ?? [];
      if (rets.length !== 1) return ANY;
      return this.evalExpr(rets[0]);
    } finally {
      this.override = saved;
    }
  }

  private fnResult(fn: N): V {
    if (!fn) return ANY;
    const rets = this.fnReturns.get(fn);
    if (!rets || rets.length === 0) return ANY;
    const memoKey = "ret:" + fn.span.start;
    const m = this.identMemo.get(memoKey);
    if (m) return m;
    this.identMemo.set(memoKey, ANY);
    const v = union(rets.map((r) => this.evalExpr(r)));
    this.identMemo.set(memoKey, v);
    return v;
  }

  // ---- network destinations ----------------------------------------------------------------
  private checkDestination(args: N[], pos: number) {
    if (this.net !== "openvibe-only") return;
    const a = args[0];
    if (!a) return;
    const host = this.hostOf(a, 0);
    if (host === null) this.report("net.unresolved_host", pos);
    else if (!isOpenVibeHost(host)) this.report("net.foreign_host", pos, host);
  }

  private hostOf(e: N, depth: number): string | null {
    if (!e || depth > 8) return null;
    const v = this.evalExpr(e);
    if (v.t === "str") return hostOfUrl(v.s) ?? hostOfPrefix(v.s);
    const several = strsOf(v);
    if (several) {
      // every value the address can take must be an OpenVibe host; report the first that is not
      let host: string | null = null;
      for (let _i20 = 0, _a20 = several; _i20 < _a20.length; _i20++) {
        const s = _a20[_i20]!;
        const h = hostOfUrl(s) ?? hostOfPrefix(s);
        if (h === null || !isOpenVibeHost(h)) return h;
        host = h;
      }
      return host;
    }
    switch (e.type) {
      case "ParenthesisExpression":
      case "AwaitExpression":
        return this.hostOf(e.expression ?? e.argument, depth + 1);
      case "Identifier": {
        const bl = this.binds.get(key(e));
        if (!bl || bl.length !== 1 || !bl[0]!.src || bl[0]!.path) return null;
        return this.hostOf(bl[0]!.src, depth + 1);
      }
      case "TemplateLiteral":
      case "BinaryExpression": {
        const prefix = this.constPrefix(e);
        return prefix === null ? null : hostOfPrefix(prefix);
      }
      case "NewExpression": {
        const cv = this.evalExpr(e.callee);
        const args = (e.arguments ?? []).map((a: N) => a.expression);
        if (cv.t === "ref" && (cv.p === "URL" || cv.p === "Request")) {
          const first = args[0] ? this.evalExpr(args[0]) : ANY;
          if (first.t === "str" && hostOfUrl(first.s)) return hostOfUrl(first.s);
          const pre = args[0] ? this.constPrefix(args[0]) : null;
          const relative =
            (first.t === "str" && !/^[a-z][a-z0-9+.-]*:|^\/\//i.test(first.s)) ||
            (pre !== null && pre.startsWith("/") && !pre.startsWith("//"));
          if (cv.p === "URL" && relative && args[1]) return this.hostOf(args[1], depth + 1);
          if (cv.p === "Request" && pre !== null) return hostOfPrefix(pre);
        }
        return null;
      }
      case "ObjectExpression": {
        for (let _i21 = 0, _a21 = e.properties; _i21 < _a21.length; _i21++) {
          const p = _a21[_i21]!;
          if (p.type === "KeyValueProperty" && (p.key.value === "hostname" || p.key.value === "host")) {
            const hv = this.evalExpr(p.value);
            return hv.t === "str" ? hv.s.replace(/:\d+$/, "") : null;
          }
        }
        return null;
      }
    }
    return null;
  }

  private constPrefix(e: N): string | null {
    if (e.type === "TemplateLiteral") {
      let s = e.quasis[0].cooked ?? "";
      for (let i = 0; i < e.expressions.length; i++) {
        const v = this.evalExpr(e.expressions[i]);
        const vs = asStr(v);
        if (vs === null) return s;
        s += vs + (e.quasis[i + 1]?.cooked ?? "");
      }
      return s;
    }
    if (e.type === "BinaryExpression" && e.operator === "+") {
      const l = this.constPrefix(e.left);
      if (l === null) return null;
      const lv = this.evalExpr(e.left);
      if (asStr(lv) === null) return l;
      const r = this.evalExpr(e.right);
      const rs = asStr(r) ?? commonPrefix(strsOf(r));
      return rs === null ? l + (this.constPrefix(e.right) ?? "") : l + rs;
    }
    if (e.type === "ParenthesisExpression") return this.constPrefix(e.expression);
    const v = this.evalExpr(e);
    return asStr(v);
  }

  // ---- strings -----------------------------------------------------------------------------
  private checkLiteral(n: N) {
    if (n.type === "StringLiteral") {
      const v = strLit(n);
      this.checkStr(v, n.span.start, true);
    } else {
      for (let _i22 = 0, _a22 = n.quasis; _i22 < _a22.length; _i22++) {
        const q = _a22[_i22]!;
        const s = q.cooked ?? q.raw;
        const v: V = { t: "str", s, p: payloadView(q.raw) };
        this.checkStr(v, q.span.start, true);
      }
    }
  }

  private checkStringValues(v: V, pos: number) {
    if (v.t === "str" && (v.c || v.d)) this.checkStr(v, pos, false);
    else if (v.t === "or") for (const x of v.vs) this.checkStringValues(x, pos);
  }

  private checkStr(v: Extract<V, { t: "str" }>, pos: number, literal: boolean) {
    const view = v.p ?? v.s;
    if (v.s.indexOf("environ") !== -1 && /\/proc\/[^/]+\/environ/.test(v.s)) this.report("env.read", pos);
    if (longEncodedRun(view) || (view !== v.s && longEncodedRun(v.s))) this.report("payload.encoded", pos);
    if (this.net === "openvibe-only") {
      const h = foreignHostIn(v.s);
      if (h) this.report("net.foreign_host", pos, h);
    }
    if (v.d && looksLikeCode(v.s)) this.report("payload.code", pos);
    else if (literal || v.c) {
      const dec = decodeProbe(v.s);
      if (dec !== null && looksLikeCode(dec)) this.report("payload.code", pos);
    }
  }

  // ---- loops over input --------------------------------------------------------------------
  private taintKey(k: string): boolean {
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
            c.arguments.slice(b.index).some((a: N) => this.tainted(a.expression, 0)),
          );
        }
        if (t) break;
      }
    }
    this.taintMemo.set(k, t);
    return t;
  }

  /** Does expression `e` carry data read from the tool's input? */
  tainted(e: N, depth: number): boolean {
    if (!e || typeof e !== "object" || depth > 60) return false;
    switch (e.type) {
      case "Identifier":
        if (e.ctxt === GLOBAL_CTXT) return false;
        return this.taintKey(key(e));
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
        if (o.type === "Identifier" && o.ctxt === GLOBAL_CTXT && o.value === "process") {
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
            e.arguments.some((a: N) => a.expression.type === "NumericLiteral")
          )
            return false;
        }
        if (c.type === "Identifier" && (c.value === "readFileSync" || c.value === "readFile")) return true;
        if (c.type === "Identifier" && c.ctxt !== GLOBAL_CTXT) {
          const fnv = this.evalExpr(c);
          if (
            fnv.t === "fn" &&
            fnv.node &&
            (this.fnTouchesInput.has(fnv.node) ||
              (this.fnReturns.get(fnv.node) ?? []).some((r) => this.tainted(r, depth + 1)))
          )
            return true;
        }
        if (c.type !== "Import" && c.type !== "Super" && this.tainted(c, depth + 1)) return true;
        return e.arguments.some((a: N) => this.tainted(a.expression, depth + 1));
      }
    }
    for (const k in e) {
      if (k === "span" || k === "type") continue;
      const v = e[k];
      if (!v || typeof v !== "object") continue;
      if (Array.isArray(v)) {
        for (const c of v)
          if (c && typeof c === "object" && this.tainted(c.type ? c : c.expression, depth + 1)) return true;
      } else if (this.tainted(v.type ? v : v.expression, depth + 1)) return true;
    }
    return false;
  }

  private accessPath(e: N, depth: number): string {
    if (!e || depth > 10) return "?";
    switch (e.type) {
      case "ParenthesisExpression":
        return this.accessPath(e.expression, depth + 1);
      case "Identifier": {
        const bl = this.binds.get(key(e));
        if (bl && bl.length === 1 && bl[0]!.src && !bl[0]!.path && !bl[0]!.taintOnly && !isFn(bl[0]!.src))
          return this.accessPath(bl[0]!.src, depth + 1);
        return "k:" + key(e);
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
    return "@" + e.span.start;
  }

  private iterOf(rec: LoopRec): { expr: N; lengthish: boolean } | null {
    if (rec.iter) return { expr: rec.iter, lengthish: true };
    if (!rec.test) return null;
    const sides: N[] = [];
    collectComparisons(rec.test, sides);
    for (let _i24 = 0, _a24 = sides; _i24 < _a24.length; _i24++) {
      const s = _a24[_i24]!;
      if (!this.tainted(s, 0)) continue;
      if (s.type === "MemberExpression" && (propName(s) === "length" || propName(s) === "size"))
        return { expr: s.object, lengthish: true };
      if (s.type === "Identifier") {
        const bl = this.binds.get(key(s));
        const src = bl?.[0]?.src;
        if (src && src.type === "MemberExpression" && (propName(src) === "length" || propName(src) === "size"))
          return { expr: src.object, lengthish: true };
      }
      return { expr: s, lengthish: this.sizeDerived(s, 0) };
    }
    return null;
  }

  /** Does `e` come from the size of some data (`.length`, `.size`) rather than a number the input names? */
  private sizeDerived(e: N, depth: number): boolean {
    if (!e || typeof e !== "object" || depth > 6) return false;
    if (e.type === "MemberExpression") {
      const pn = propName(e);
      if (pn === "length" || pn === "size") return true;
    }
    if (e.type === "Identifier") {
      const bl = this.binds.get(key(e));
      return !!bl && bl.length > 0 && bl.every((b) => !!b.src && !b.path && this.sizeDerived(b.src, depth + 1));
    }
    for (const k in e) {
      if (k === "span") continue;
      const v = e[k];
      if (!v || typeof v !== "object") continue;
      const list = Array.isArray(v) ? v : [v];
      for (let i = 0; i < list.length; i++) {
        const c = list[i];
        if (c && typeof c === "object" && this.sizeDerived(c.type ? c : c.expression, depth + 1)) return true;
      }
    }
    return false;
  }

  private checkLoops() {
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

  private bodyBreaksOnInput(body: N): boolean {
    let found = false;
    const visit = (n: N) => {
      if (found || !n || typeof n !== "object") return;
      if (Array.isArray(n)) return n.forEach(visit);
      if (isFn(n)) return;
      if (n.type === "IfStatement" && this.tainted(n.test, 0)) {
        found = true;
        return;
      }
      for (const k in n) if (k !== "span") visit(n[k]);
    };
    visit(body);
    return found;
  }
}

// ---- helpers ------------------------------------------------------------------------------------
/** The empty destructuring path, shared (paths are only read or copied, never changed in place). */
const NO_PATH: (string | null)[] = [];
/** No arguments, shared (never changed in place). */
const NO_ARGS: N[] = [];
// Binding keys are "name#ctxt"; cached per name and ctxt so a hot lookup allocates nothing. Most names
// have one ctxt, so the first one seen is kept beside the name and answers with a single lookup.
interface KeyRec {
  c: number;
  k: string;
  more: Map<number, string> | null;
}
const KEY_CACHE = new Map<string, KeyRec>();
function key(id: N): string {
  const name: string = id.value;
  const ctxt: number = id.ctxt;
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
function isLocalIdent(n: N): boolean {
  return n.type === "Identifier" && n.ctxt !== GLOBAL_CTXT;
}
function isFn(n: N): boolean {
  return n && (n.type === "FunctionExpression" || n.type === "ArrowFunctionExpression");
}
function propName(m: N): string | null {
  const p = m.property;
  if (p.type === "Identifier") return p.value;
  if (p.type === "Computed" && (p.expression.type === "StringLiteral" || p.expression.type === "NumericLiteral"))
    return String(p.expression.value);
  return null;
}
function isStdioFd(e: N): boolean {
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
function isConstTrue(t: N): boolean {
  return (t.type === "BooleanLiteral" && t.value) || (t.type === "NumericLiteral" && t.value !== 0);
}
function hasUseStrict(body: N[]): boolean {
  for (let _i25 = 0, _a25 = body; _i25 < _a25.length; _i25++) {
    const s = _a25[_i25]!;
    if (s.type !== "ExpressionStatement" || s.expression.type !== "StringLiteral") return false;
    if (s.expression.value === "use strict") return true;
  }
  return false;
}
function collectComparisons(t: N, out: N[]) {
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

function union(vs: V[]): V {
  if (vs.length === 1 && vs[0]!.t !== "or") return vs[0]!;
  const flat: V[] = [];
  let hasAny = false;
  for (let i = 0; i < vs.length; i++) {
    const v = vs[i]!;
    if (v.t === "or") {
      for (let j = 0; j < v.vs.length; j++) {
        const x = v.vs[j]!;
        if (x.t === "any") hasAny = true;
        flat.push(x);
      }
    } else if (v.t !== "any") flat.push(v);
    else if (!hasAny) {
      hasAny = true;
      flat.push(v);
    }
  }
  if (flat.length === 0) return ANY;
  if (flat.length === 1) return flat[0]!;
  return { t: "or", vs: flat.slice(0, 32) };
}
function asStr(v: V): string | null {
  if (v.t === "str") return v.s;
  if (v.t === "num") return String(v.n);
  return null;
}
/** The strings a value can be, when every alternative is a known string. */
function strsOf(v: V): string[] | null {
  if (v.t === "str") return [v.s];
  if (v.t !== "or") return null;
  const out: string[] = [];
  for (let _i27 = 0, _a27 = v.vs; _i27 < _a27.length; _i27++) {
    const x = _a27[_i27]!;
    if (x.t !== "str") return null;
    out.push(x.s);
  }
  return out;
}
function commonPrefix(list: string[] | null): string | null {
  if (!list || list.length === 0) return null;
  let p = list[0]!;
  for (let _i28 = 0, _a28 = list; _i28 < _a28.length; _i28++) {
    const s = _a28[_i28]!;
    while (!s.startsWith(p)) p = p.slice(0, -1);
  }
  return p;
}
const REF_INTERN = new Map<string, V>();
/** The one value for a well-known path (interned; its resolved properties are cached on it). */
function ref(p: string): V {
  let r = REF_INTERN.get(p);
  if (!r) {
    if (REF_INTERN.size > 50_000) REF_INTERN.clear();
    REF_INTERN.set(p, (r = { t: "ref", p }));
  }
  return r;
}
function decoded(s: string): V {
  return { t: "str", s, d: true, c: true };
}

function strLit(n: N): Extract<V, { t: "str" }> {
  const raw: string = n.raw ?? "";
  if (raw.indexOf("\\") === -1) return { t: "str", s: n.value };
  const p = payloadView(raw.slice(1, -1));
  const escapes = (raw.match(/\\(?:x[0-9a-fA-F]{2}|u\{?[0-9a-fA-F]{4})/g) ?? []).length;
  return { t: "str", s: n.value, p, d: escapes >= 4 };
}

/** The payload view of raw source text: \xHH counts as its two hex digits; escaped line breaks vanish. */
function payloadView(raw: string): string {
  if (raw.indexOf("\\") === -1) return raw;
  return raw
    .replace(/\\x([0-9a-fA-F]{2})/g, "$1")
    .replace(/\\u\{?([0-9a-fA-F]{4})\}?/g, "$1")
    .replace(/\\\r?\n/g, "")
    .replace(/\\[nrt]/g, "\n");
}

function hostOfPrefix(s: string): string | null {
  const m = /^\s*(?:[a-z][a-z0-9+.-]*:)?\/\/([^/?#\s]*)[/?#]/i.exec(s);
  if (!m) return null;
  return hostOfUrl("http://" + m[1] + "/");
}
