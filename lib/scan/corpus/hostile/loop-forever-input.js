/* eslint-disable */
// net: deny
// expect: loop.input
const raw = require("node:fs").readFileSync(0, "utf8");
const input = JSON.parse(raw || "{}");
let n = 0;
for (;;) {
  n++;
  if (n > input.limit) break;
}
console.log(n);
