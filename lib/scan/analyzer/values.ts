// The abstract values the evaluator computes (strings, numbers, well-known references, functions,
// objects, arrays, unions, unknown) and the small operations on them.
import { hostOfUrl } from "../text";
import type { Expression, Identifier, ObjectExpression, StringLiteral } from "@swc/types";
import { type FnValueNode } from "./ast";

/** An object's known property: the expression (or shorthand name) it is read from, or a value. */
export type PropSource = Expression | Identifier | V;

// ---- abstract values --------------------------------------------------------------------------
export type V =
  | { t: "str"; s: string; p?: string; d?: boolean; c?: boolean }
  | { t: "num"; n: number }
  | { t: "ref"; p: string; kids?: Map<string, V> }
  | { t: "fn"; node: FnValueNode | null }
  | { t: "obj"; props?: Map<string, PropSource>; node?: ObjectExpression }
  | { t: "arr"; items: V[] }
  | { t: "m"; recv: V; name: string }
  | { t: "or"; vs: V[] }
  | { t: "any" };

export const ANY: V = { t: "any" };
/** A property source that is already a value (swc's nodes have `type`, values `t`). */
export function isValue(x: PropSource): x is V {
  return "t" in x;
}
export function union(vs: V[]): V {
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
export function asStr(v: V): string | null {
  if (v.t === "str") return v.s;
  if (v.t === "num") return String(v.n);
  return null;
}
/** The strings a value can be, when every alternative is a known string. */
export function strsOf(v: V): string[] | null {
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
export function commonPrefix(list: string[] | null): string | null {
  if (!list || list.length === 0) return null;
  let p = list[0]!;
  for (let _i28 = 0, _a28 = list; _i28 < _a28.length; _i28++) {
    const s = _a28[_i28]!;
    while (!s.startsWith(p)) p = p.slice(0, -1);
  }
  return p;
}
export const REF_INTERN = new Map<string, V>();
/** The one value for a well-known path (interned; its resolved properties are cached on it). */
export function ref(p: string): V {
  let r = REF_INTERN.get(p);
  if (!r) {
    if (REF_INTERN.size > 50_000) REF_INTERN.clear();
    REF_INTERN.set(p, (r = { t: "ref", p }));
  }
  return r;
}
export function decoded(s: string): V {
  return { t: "str", s, d: true, c: true };
}

export function strLit(n: StringLiteral): Extract<V, { t: "str" }> {
  const raw: string = n.raw ?? "";
  if (raw.indexOf("\\") === -1) return { t: "str", s: n.value };
  const p = payloadView(raw.slice(1, -1));
  const escapes = (raw.match(/\\(?:x[0-9a-fA-F]{2}|u\{?[0-9a-fA-F]{4})/g) ?? []).length;
  return { t: "str", s: n.value, p, d: escapes >= 4 };
}

/** The payload view of raw source text: \xHH counts as its two hex digits; escaped line breaks vanish. */
export function payloadView(raw: string): string {
  if (raw.indexOf("\\") === -1) return raw;
  return raw
    .replace(/\\x([0-9a-fA-F]{2})/g, "$1")
    .replace(/\\u\{?([0-9a-fA-F]{4})\}?/g, "$1")
    .replace(/\\\r?\n/g, "")
    .replace(/\\[nrt]/g, "\n");
}

export function hostOfPrefix(s: string): string | null {
  const m = /^\s*(?:[a-z][a-z0-9+.-]*:)?\/\/([^/?#\s]*)[/?#]/i.exec(s);
  if (!m) return null;
  return hostOfUrl("http://" + m[1] + "/");
}
