// The sinks: what a call of a well-known function does (spawn, eval, network, files, timers,
// decoders) and the checks on strings and destinations that reach them.
import { MAX_TIMER_MS } from "../rules";
import { decodeProbe, foreignHostIn, hostOfUrl, isOpenVibeHost, longEncodedRun, looksLikeCode } from "../text";
import type {
  Argument,
  Expression,
  Node,
  ObjectExpression,
  PropertyName,
  StringLiteral,
  TemplateLiteral,
} from "@swc/types";
import {
  type CallNode,
  type FnValueNode,
  type Ident,
  isClass,
  isFnExpr,
  key,
  NO_ARGS,
  type ParamNode,
  paramPattern,
  type SrcNode,
  startOf,
} from "./ast";
import { FN_REFS_SAFE_CALL, FS_OPEN, NET_MODULES, OBJECT_REFS, READ_FLAGS } from "./names";
import {
  ANY,
  asStr,
  commonPrefix,
  decoded,
  hostOfPrefix,
  payloadView,
  ref,
  strLit,
  strsOf,
  union,
  type V,
} from "./values";
import { MAX_FOLDED_CHARS, TooComplex } from "./budget";
import { ModuleLoads } from "./modules";

export abstract class Sinks extends ModuleLoads {
  protected abstract tainted(e: Node | null | undefined, depth: number): boolean;
  protected abstract sizeDerived(e: Node | null | undefined, depth: number): boolean;

  protected applyCall(callee: V, args: (Expression | null)[], n: CallNode, isNew: boolean, argVals?: V[]): V {
    if (callee.t === "fn") {
      if (isNew && isClass(callee.node)) return callee;
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
        const len = a0?.type === "ObjectExpression" ? lengthProperty(a0) : p === "Array" ? a0 : null;
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
        if (this.isSensitive(v[i]!)) {
          const a = args[i];
          this.report("scan.unresolved", a ? startOf(a) : pos, "sensitive object passed to " + p);
        }
    }
    if (p.endsWith(".toString") || p === "String") {
      return ANY;
    }
    return ANY;
  }

  protected applyMethod(m: { recv: V; name: string }, n: CallNode, av: V[]): V {
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
          if (v[0]?.t !== "num" || !(v[0].n < 1000)) return ANY;
          if (s.length * Math.max(v[0].n, 0) > MAX_FOLDED_CHARS) throw new TooComplex(n.span.start);
          return { t: "str", s: s.repeat(v[0].n), c: true };
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
  protected charCodes(av: V[], args: (Expression | null)[], n: CallNode): number[] | null {
    const codes: number[] = [];
    const spread = args.some((a) => a === null);
    const raw: Argument[] = spread && "arguments" in n ? (n.arguments ?? NO_ARGS) : NO_ARGS;
    for (let i = 0; i < av.length; i++) {
      const x = spread && raw[i]?.spread ? this.evalExpr(raw[i]!.expression) : av[i]!;
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
  protected checkDelay(v: V, arg: Expression, pos: number) {
    const n = v.t === "num" ? v.n : v.t === "str" ? Number(v.s) : NaN;
    if (n > MAX_TIMER_MS || (Number.isNaN(n) && this.tainted(arg, 0))) this.report("timer.long", pos);
  }

  /** Applies a function value to known arguments (for `.map(c => String.fromCharCode(c ^ 7))`). */
  protected callWith(f: V, argv: V[], n: CallNode): V {
    if (f.t === "ref" || f.t === "m") return this.applyCall(f, [], n, false, argv.slice(0, 1));
    if (f.t !== "fn" || !isFnExpr(f.node)) return ANY;
    const fn = f.node;
    const ov = new Map<string, V>(this.override ?? []);
    const params: readonly ParamNode[] = fn.params;
    params.forEach((p, i) => {
      const id = paramPattern(p);
      if (id?.type === "Identifier") ov.set(key(id), argv[i] ?? ANY);
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

  protected fnResult(fn: FnValueNode | null): V {
    if (!fn) return ANY;
    const rets = this.fnReturns.get(fn);
    if (!rets || rets.length === 0) return ANY;
    const memoKey: number = fn.span.start;
    const m = this.returnMemo.get(memoKey);
    if (m) return m;
    this.returnMemo.set(memoKey, ANY);
    const v = union(rets.map((r) => this.evalExpr(r)));
    this.returnMemo.set(memoKey, v);
    return v;
  }

  // ---- network destinations ----------------------------------------------------------------
  protected checkDestination(args: (Expression | null)[], pos: number) {
    if (this.net !== "openvibe-only") return;
    const a = args[0];
    if (!a) return;
    const host = this.hostOf(a, 0);
    if (host === null) this.report("net.unresolved_host", pos);
    else if (!isOpenVibeHost(host)) this.report("net.foreign_host", pos, host);
  }

  protected hostOf(e: SrcNode | null | undefined, depth: number): string | null {
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
        return this.hostOf(e.expression, depth + 1);
      case "AwaitExpression":
        return this.hostOf(e.argument, depth + 1);
      case "Identifier": {
        const bl = this.binds.get(key(e as Ident));
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
        const args = (e.arguments ?? []).map((a) => a.expression);
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
          const k = p.type === "KeyValueProperty" ? propertyKey(p.key) : null;
          if (p.type === "KeyValueProperty" && (k === "hostname" || k === "host")) {
            const hv = this.evalExpr(p.value);
            return hv.t === "str" ? hv.s.replace(/:\d+$/, "") : null;
          }
        }
        return null;
      }
    }
    return null;
  }

  protected constPrefix(e: Expression): string | null {
    if (e.type === "TemplateLiteral") {
      let s = e.quasis[0]?.cooked ?? "";
      for (let i = 0; i < e.expressions.length; i++) {
        const v = this.evalExpr(e.expressions[i]!);
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
  protected checkLiteral(n: StringLiteral | TemplateLiteral) {
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

  protected checkStringValues(v: V, pos: number) {
    if (v.t === "str" && (v.c || v.d)) this.checkStr(v, pos, false);
    else if (v.t === "or") for (const x of v.vs) this.checkStringValues(x, pos);
  }

  protected checkStr(v: Extract<V, { t: "str" }>, pos: number, literal: boolean) {
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
}

/** The name a literal object key spells (`{ host: … }`, `{ "host": … }`); null when computed or a number. */
function propertyKey(k: PropertyName): string | null {
  return k.type === "Identifier" || k.type === "StringLiteral" ? k.value : null;
}

/** The value of a literal `length` key (`Array.from({ length: n })`). */
function lengthProperty(o: ObjectExpression): Expression | undefined {
  for (const q of o.properties) if (q.type === "KeyValueProperty" && propertyKey(q.key) === "length") return q.value;
  return undefined;
}
