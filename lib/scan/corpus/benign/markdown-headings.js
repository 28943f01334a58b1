/* eslint-disable */
// net: deny
const raw = require("node:fs").readFileSync(0, "utf8");
const input = JSON.parse(raw || "{}");

const headings = [];
for (const line of String(input.markdown || "").split("\n")) {
  const m = /^(#{1,6})\s+(.*)$/.exec(line);
  if (m) headings.push({ level: m[1].length, text: m[2].trim() });
}
console.log(JSON.stringify({ headings }));
