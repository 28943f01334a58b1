// RFC 8785 JSON Canonicalization Scheme: the one serialisation the integrity hash is taken over.
// Written here rather than taken from a package so that every rule it follows is visible and tested
// against the RFC's own examples (canonical-json.test.ts).

export class CanonicalJsonError extends TypeError {
  constructor(
    message: string,
    readonly path: string,
  ) {
    super(`${message} at ${path || "/"}`);
    this.name = "CanonicalJsonError";
  }
}

/** Deeper values are refused, so an attacker's deeply nested value cannot overflow the stack. */
const MAX_DEPTH = 256;

export type CanonicalJsonOptions = {
  /** Leave out object members whose value is undefined, as JSON.stringify does (default: refuse them). */
  omitUndefined?: boolean;
};

/** The canonical JSON text of a JSON value. Throws CanonicalJsonError on anything that is not I-JSON. */
export function canonicalJson(value: unknown, options: CanonicalJsonOptions = {}): string {
  const parts: string[] = [];
  write(value, "", parts, new Set(), options.omitUndefined === true);
  return parts.join("");
}

function write(value: unknown, path: string, out: string[], ancestors: Set<object>, omitUndefined: boolean): void {
  if (value === null) return void out.push("null");
  switch (typeof value) {
    case "boolean":
      return void out.push(value ? "true" : "false");
    case "number":
      return void out.push(serializeNumber(value, path));
    case "string":
      return void out.push(serializeString(value, path));
    case "object":
      break;
    default:
      throw new CanonicalJsonError(`A ${typeof value} is not JSON`, path);
  }
  const obj = value as object;
  if (ancestors.has(obj)) throw new CanonicalJsonError("A cycle is not JSON", path);
  if (ancestors.size >= MAX_DEPTH)
    throw new CanonicalJsonError(`A value nested deeper than ${MAX_DEPTH} is refused`, path);
  ancestors.add(obj);
  if (Array.isArray(obj)) {
    out.push("[");
    obj.forEach((item, i) => {
      if (i > 0) out.push(",");
      write(item, `${path}/${i}`, out, ancestors, omitUndefined);
    });
    out.push("]");
  } else {
    const proto = Object.getPrototypeOf(obj);
    if (proto !== Object.prototype && proto !== null) throw new CanonicalJsonError("Only plain objects are JSON", path);
    // RFC 8785 3.2.3: members sorted by their names as arrays of UTF-16 code units.
    const keys = Object.keys(obj).sort(compareUtf16);
    out.push("{");
    let first = true;
    for (const k of keys) {
      const member: unknown = Reflect.get(obj, k);
      if (member === undefined && omitUndefined) continue;
      if (!first) out.push(",");
      first = false;
      const childPath = `${path}/${k.replaceAll("~", "~0").replaceAll("/", "~1")}`;
      out.push(serializeString(k, childPath), ":");
      write(member, childPath, out, ancestors, omitUndefined);
    }
    out.push("}");
  }
  ancestors.delete(obj);
}

export function compareUtf16(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const d = a.charCodeAt(i) - b.charCodeAt(i);
    if (d !== 0) return d;
  }
  return a.length - b.length;
}

/**
 * RFC 8785 3.2.2.3 defers to ECMAScript's Number::toString, which is exactly what JavaScript's own
 * number-to-string conversion implements (shortest round-trip digits, exponent from 1e21 and below
 * 1e-6); only -0, NaN and the infinities need handling here.
 */
function serializeNumber(n: number, path: string): string {
  if (!Number.isFinite(n)) throw new CanonicalJsonError(`${n} is not JSON`, path);
  if (Object.is(n, -0)) return "0";
  return String(n);
}

const SHORT_ESCAPES: Record<number, string> = {
  0x08: "\\b",
  0x09: "\\t",
  0x0a: "\\n",
  0x0c: "\\f",
  0x0d: "\\r",
  0x22: '\\"',
  0x5c: "\\\\",
};

/** RFC 8785 3.2.2.2: only `"`, `\` and U+0000..U+001F are escaped; lone surrogates are refused. */
function serializeString(s: string, path: string): string {
  let out = '"';
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff) {
      const next = s.charCodeAt(i + 1);
      if (!(next >= 0xdc00 && next <= 0xdfff)) throw new CanonicalJsonError("A lone surrogate is not JSON text", path);
      out += s[i]! + s[i + 1]!;
      i++;
      continue;
    }
    if (c >= 0xdc00 && c <= 0xdfff) throw new CanonicalJsonError("A lone surrogate is not JSON text", path);
    const short = SHORT_ESCAPES[c];
    if (short) out += short;
    else if (c < 0x20) out += "\\u" + c.toString(16).padStart(4, "0");
    else out += s[i]!;
  }
  return out + '"';
}
