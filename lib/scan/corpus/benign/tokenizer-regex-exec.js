/* eslint-disable */
// net: deny
const raw = require("node:fs").readFileSync(0, "utf8");
const input = JSON.parse(raw || "{}");
const re = /(\d+|[a-z]+|\S)/gi;
const tokens = [];
let m;
while ((m = re.exec(String(input.text || ""))) !== null) {
  tokens.push(m[1]);
  if (tokens.length >= 1000) break;
}
console.log(JSON.stringify({ tokens }));
