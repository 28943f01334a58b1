/* eslint-disable */
// net: deny
const raw = require("node:fs").readFileSync(0, "utf8");
const input = JSON.parse(raw || "{}");

function flatten(value, prefix, out) {
  if (value && typeof value === "object" && !Array.isArray(value)) {
    for (const [k, v] of Object.entries(value)) flatten(v, prefix ? prefix + "." + k : k, out);
  } else out[prefix] = value;
  return out;
}
process.stdout.write(JSON.stringify(flatten(input.data || {}, "", {})));
