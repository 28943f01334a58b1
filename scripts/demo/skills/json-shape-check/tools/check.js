// check_shape: checks a JSON value against a small shape: required paths and their types.
// Input: { "json": string, "required"?: string[], "types"?: string[] ("path:type"), "allow_extra"?: boolean }
// Output: { "valid": boolean, "errors": [{ "path": string, "message": string }] }
"use strict";

const TYPES = new Set(["string", "number", "integer", "boolean", "array", "object", "null"]);

function typeOf(value) {
  if (value === null) return "null";
  if (Array.isArray(value)) return "array";
  if (typeof value === "number") return Number.isInteger(value) ? "integer" : "number";
  return typeof value;
}

function matches(value, type) {
  const actual = typeOf(value);
  return actual === type || (type === "number" && actual === "integer");
}

// Paths are dotted ("user.address.city"); a numeric segment indexes an array ("items.0.id").
function lookup(root, path) {
  let node = root;
  for (const segment of path.split(".")) {
    if (node === null || typeof node !== "object" || !Object.prototype.hasOwnProperty.call(node, segment)) {
      return { found: false };
    }
    node = node[segment];
  }
  return { found: true, value: node };
}

function run(input) {
  if (typeof input.json !== "string") throw new Error("`json` must be the JSON text to check.");
  let doc;
  try {
    doc = JSON.parse(input.json);
  } catch (err) {
    return { valid: false, errors: [{ path: "", message: `Not valid JSON: ${err.message}` }] };
  }
  const errors = [];
  const required = Array.isArray(input.required) ? input.required : [];
  const types = Array.isArray(input.types) ? input.types : [];
  for (const path of required) {
    if (!lookup(doc, path).found) errors.push({ path, message: "is required but missing" });
  }
  const declared = new Set();
  for (const rule of types) {
    const at = rule.lastIndexOf(":");
    const path = rule.slice(0, at);
    const type = rule.slice(at + 1);
    if (at <= 0 || !TYPES.has(type)) {
      errors.push({ path: rule, message: `is not a "path:type" rule (types: ${[...TYPES].join(", ")})` });
      continue;
    }
    declared.add(path.split(".")[0]);
    const hit = lookup(doc, path);
    if (hit.found && !matches(hit.value, type)) {
      errors.push({ path, message: `should be ${type}, found ${typeOf(hit.value)}` });
    }
  }
  if (input.allow_extra === false && typeOf(doc) === "object") {
    const known = new Set([...required.map((p) => p.split(".")[0]), ...declared]);
    for (const k of Object.keys(doc)) if (!known.has(k)) errors.push({ path: k, message: "is not expected" });
  }
  return { valid: errors.length === 0, errors };
}

let raw = "";
process.stdin.setEncoding("utf8");
process.stdin.on("data", (chunk) => {
  raw += chunk;
});
process.stdin.on("end", () => {
  try {
    process.stdout.write(JSON.stringify(run(JSON.parse(raw || "{}"))));
  } catch (err) {
    process.stdout.write(JSON.stringify({ error: err.message }));
    process.exitCode = 1;
  }
});
