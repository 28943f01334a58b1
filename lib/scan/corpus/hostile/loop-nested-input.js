/* eslint-disable */
// net: deny
// expect: loop.input
const raw = require("node:fs").readFileSync(0, "utf8");
const input = JSON.parse(raw || "{}");
let pairs = 0;
for (const a of input.items) {
  for (const b of input.items) {
    if (a === b) pairs++;
  }
}
console.log(JSON.stringify({ pairs }));
