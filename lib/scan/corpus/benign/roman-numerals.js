/* eslint-disable */
// net: deny
const raw = require("node:fs").readFileSync(0, "utf8");
const input = JSON.parse(raw || "{}");

const TABLE = [[1000, "M"], [900, "CM"], [500, "D"], [400, "CD"], [100, "C"], [90, "XC"], [50, "L"], [40, "XL"], [10, "X"], [9, "IX"], [5, "V"], [4, "IV"], [1, "I"]];
let n = Math.max(0, Math.min(3999, Math.floor(Number(input.n) || 0)));
let out = "";
for (const [v, s] of TABLE) {
  while (n >= v) {
    out += s;
    n -= v;
  }
}
console.log(JSON.stringify({ roman: out }));
