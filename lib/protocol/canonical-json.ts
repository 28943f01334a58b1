// RFC 8785 JSON Canonicalization Scheme (JCS): the one byte form of a JSON value that a signature
// covers. Numbers are written the ECMAScript way (which RFC 8785 adopts), strings with
// JSON.stringify's escaping, object members sorted by their UTF-16 code units. Depth is bounded,
// so an attacker's deeply nested value cannot overflow the stack.

const MAX_DEPTH = 256;
const SURROGATE = /[\uD800-\uDFFF]/;
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

export class CanonicalJsonError extends Error {}

function text(value: string): string {
  // A lone surrogate has no UTF-8 form: RFC 8785 §3.2.2.2 makes it an error, not a replacement.
  if (SURROGATE.test(value) && LONE_SURROGATE.test(value)) {
    throw new CanonicalJsonError("a JSON string must be well-formed Unicode");
  }
  return JSON.stringify(value);
}

function write(value: unknown, depth: number, out: string[]): void {
  if (value === null) out.push("null");
  else if (typeof value === "boolean") out.push(value ? "true" : "false");
  else if (typeof value === "number") {
    if (!Number.isFinite(value)) throw new CanonicalJsonError("a JSON number must be finite");
    out.push(JSON.stringify(value));
  } else if (typeof value === "string") out.push(text(value));
  else if (typeof value === "object") {
    if (depth >= MAX_DEPTH) throw new CanonicalJsonError(`nested deeper than ${MAX_DEPTH}`);
    if (Array.isArray(value)) {
      out.push("[");
      for (let i = 0; i < value.length; i++) {
        if (i > 0) out.push(",");
        write(value[i], depth + 1, out);
      }
      out.push("]");
      return;
    }
    // The default sort compares UTF-16 code units, which is the order RFC 8785 §3.2.3 asks for.
    const keys = Object.keys(value).sort();
    out.push("{");
    let first = true;
    for (const key of keys) {
      const member: unknown = Reflect.get(value, key);
      if (member === undefined) continue;
      if (!first) out.push(",");
      first = false;
      out.push(text(key), ":");
      write(member, depth + 1, out);
    }
    out.push("}");
  } else throw new CanonicalJsonError(`${typeof value} is not a JSON value`);
}

/** The RFC 8785 canonical text of a JSON value (a value `JSON.parse` could have produced). */
export function canonicalJson(root: unknown): string {
  const out: string[] = [];
  write(root, 0, out);
  return out.join("");
}
