// RFC 8785 JSON Canonicalization Scheme (JCS): the one byte form of a JSON value that a signature
// covers. Numbers are written the ECMAScript way (which RFC 8785 adopts), strings with
// JSON.stringify's escaping, object members sorted by their UTF-16 code units. Iterative with a
// bound on depth, so an attacker's deeply nested value cannot overflow the stack.

const MAX_DEPTH = 256;
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

export class CanonicalJsonError extends Error {}

function scalar(value: unknown): string {
  if (value === null) return "null";
  if (typeof value === "boolean") return value ? "true" : "false";
  if (typeof value === "number") {
    if (!Number.isFinite(value)) throw new CanonicalJsonError("a JSON number must be finite");
    return JSON.stringify(value);
  }
  if (typeof value === "string") {
    // A lone surrogate has no UTF-8 form: RFC 8785 §3.2.2.2 makes it an error, not a replacement.
    if (LONE_SURROGATE.test(value)) throw new CanonicalJsonError("a JSON string must be well-formed Unicode");
    return JSON.stringify(value);
  }
  throw new CanonicalJsonError(`${typeof value} is not a JSON value`);
}

type Frame = { close: string; items: [string | null, unknown][]; at: number };

/** The RFC 8785 canonical text of a JSON value (a value `JSON.parse` could have produced). */
export function canonicalJson(root: unknown): string {
  let out = "";
  const stack: Frame[] = [];
  const open = (value: unknown): void => {
    if (Array.isArray(value)) {
      out += "[";
      stack.push({ close: "]", items: value.map((v) => [null, v]), at: 0 });
    } else if (value !== null && typeof value === "object") {
      const members: [string, unknown][] = Object.entries(value).filter(([, v]) => v !== undefined);
      members.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
      out += "{";
      stack.push({ close: "}", items: members, at: 0 });
    } else {
      out += scalar(value);
      return;
    }
    if (stack.length > MAX_DEPTH) throw new CanonicalJsonError(`nested deeper than ${MAX_DEPTH}`);
  };
  open(root);
  while (stack.length) {
    const frame = stack[stack.length - 1]!;
    if (frame.at === frame.items.length) {
      out += frame.close;
      stack.pop();
      continue;
    }
    const [key, value] = frame.items[frame.at]!;
    if (frame.at > 0) out += ",";
    frame.at += 1;
    if (key !== null) out += `${scalar(key)}:`;
    open(value);
  }
  return out;
}
