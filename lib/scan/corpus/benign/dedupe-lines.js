/* eslint-disable */
// net: deny
const raw = require("node:fs").readFileSync(0, "utf8");
const input = JSON.parse(raw || "{}");

const seen = new Set();
const out = [];
for (const line of String(input.text || "").split(/\r?\n/)) {
  const key = input.ignoreCase ? line.toLowerCase() : line;
  if (!seen.has(key)) {
    seen.add(key);
    out.push(line);
  }
}
console.log(JSON.stringify({ text: out.join("\n"), removed: seen.size - out.length }));
