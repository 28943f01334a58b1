/* eslint-disable */
// net: deny
const raw = require("node:fs").readFileSync(0, "utf8");
const input = JSON.parse(raw || "{}");

const groups = {};
for (const item of input.items || []) {
  const k = String(item[input.key] ?? "none");
  (groups[k] ||= []).push(item);
}
const summary = Object.entries(groups).map(([k, list]) => ({ key: k, count: list.length }));
console.log(JSON.stringify({ groups: summary }));
